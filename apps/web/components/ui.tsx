import { CalendarDays, Eye, EyeOff, Pencil, Plus, Search, ShieldAlert, Trash2 } from 'lucide-react'
import {
	type InputHTMLAttributes,
	type ReactElement,
	type SelectHTMLAttributes,
	type TextareaHTMLAttributes,
	type ReactNode,
	cloneElement,
	isValidElement,
	useEffect,
	useId,
	useRef,
	useState
} from 'react'
import { brDateToIso, formatDate, initials, maskDate, moneyText, parseMoneyText } from '../../../modules/core'

/** The heading of an island that carries its own actions (buttons on the right, wrapping on phones). */
export function PageHeader({ title, subtitle, children }: { title: string; subtitle: string; children?: ReactNode }) {
	return (
		<div className="mb-5 flex flex-wrap items-center justify-between gap-3">
			<div>
				<h2 className="text-2xl font-bold">{title}</h2>
				<p className="text-sm text-base-content/70">{subtitle}</p>
			</div>
			{children}
		</div>
	)
}

/**
 * The buttons of a screen whose heading the server renders (the Shell's heading and subtitle, painted with the
 * page instead of after hydration: issue 15).
 */
export function PageActions({ children }: { children: ReactNode }) {
	return <div className="mb-5 flex flex-wrap justify-end gap-2">{children}</div>
}

/** The primary "Novo …" button of a list screen, opening its create dialog (`small` on the denser pages). */
export function AddButton({ label, onClick, small = false }: { label: string; onClick: () => void; small?: boolean }) {
	return (
		<button type="button" className={small ? 'btn btn-primary btn-sm' : 'btn btn-primary'} onClick={onClick}>
			<Plus className="size-4" aria-hidden="true" /> {label}
		</button>
	)
}

export function StatCard({
	title,
	value,
	hint,
	icon,
	tone = 'primary'
}: {
	title: string
	value: ReactNode
	hint?: ReactNode
	icon?: ReactNode
	tone?: 'primary' | 'success' | 'warning' | 'error' | 'info' | 'accent'
}) {
	const toneClass = {
		primary: 'text-primary',
		success: 'text-success',
		warning: 'text-warning',
		error: 'text-error',
		info: 'text-info',
		accent: 'text-accent'
	}[tone]
	return (
		<div className="rounded-box border border-base-300 bg-base-100 p-3 sm:p-5">
			<div className="flex items-start justify-between gap-2">
				<p className="text-xs text-base-content/70 sm:text-sm">{title}</p>
				{icon && <span className={`hidden sm:inline ${toneClass}`}>{icon}</span>}
			</div>
			<p className="mt-1 text-xl font-bold tabular-nums sm:mt-2 sm:text-2xl">{value}</p>
			{hint && <p className="mt-1 text-xs text-base-content/70">{hint}</p>}
		</div>
	)
}

export function StatCardSkeleton() {
	return <div className="skeleton h-20 w-full rounded-box sm:h-28" aria-hidden="true" />
}

/** A grid of stat cards: its children once loaded; until then (no children), `count` skeletons in the same grid. */
export function StatGrid({
	count,
	className = 'grid gap-4 sm:grid-cols-2 xl:grid-cols-4',
	children
}: {
	count: number
	className?: string
	children?: ReactNode
}) {
	return (
		<div className={className} aria-busy={children ? undefined : true}>
			{children || Array.from({ length: count }, (_, i) => <StatCardSkeleton key={i} />)}
		</div>
	)
}

export function EmptyState({ title, hint, icon, action }: { title: string; hint?: string; icon?: ReactNode; action?: ReactNode }) {
	return (
		<div className="rounded-box border border-dashed border-base-300 bg-base-100 px-6 py-12 text-center">
			{icon && <div className="mx-auto mb-3 w-fit text-base-content/40">{icon}</div>}
			<p className="font-medium">{title}</p>
			{hint && <p className="mt-1 text-sm text-base-content/70">{hint}</p>}
			{action && <div className="mt-4">{action}</div>}
		</div>
	)
}

export function ErrorPanel({ title, message, onRetry }: { title: string; message: string; onRetry?: () => void }) {
	return (
		<div role="alert" className="alert alert-error alert-soft flex flex-col items-start gap-2 sm:flex-row sm:items-center">
			<div className="grow">
				<p className="font-semibold">{title}</p>
				<p className="text-sm">{message}</p>
			</div>
			{onRetry && (
				<button type="button" className="btn btn-sm" onClick={onRetry}>
					Tentar novamente
				</button>
			)}
		</div>
	)
}

export function AccessDenied({ title = 'Acesso Negado', message }: { title?: string; message: string }) {
	return (
		<div className="mx-auto mt-10 max-w-md rounded-box border border-base-300 bg-base-100 p-8 text-center">
			<ShieldAlert className="mx-auto mb-3 size-10 text-error" aria-hidden="true" />
			<h2 className="text-xl font-bold">{title}</h2>
			<p className="mt-2 text-base-content/70">{message}</p>
		</div>
	)
}

export function SearchInput({
	value,
	onChange,
	placeholder,
	label
}: {
	value: string
	onChange: (v: string) => void
	placeholder: string
	label?: string
}) {
	return (
		<label className="input w-full sm:max-w-sm">
			<Search className="size-4 opacity-60" aria-hidden="true" />
			<input
				type="search"
				className="grow"
				value={value}
				placeholder={placeholder}
				aria-label={label ?? placeholder}
				onChange={(e) => onChange(e.target.value)}
			/>
		</label>
	)
}

/** The error line of a form (spans both columns of a `sm:grid-cols-2` form); nothing when there is none. */
export function FormError({ message }: { message: string | null | undefined }) {
	if (!message) return null
	return (
		<p className="text-sm text-error sm:col-span-2" role="alert">
			{message}
		</p>
	)
}

/**
 * A labelled form field with its error message beside it (issue 14, point 4). A plain input, select or textarea
 * child is marked aria-invalid and described by the message; other children mark themselves.
 */
export function Field({
	label,
	error,
	hint,
	children,
	className = ''
}: {
	label: string
	error?: string | null
	hint?: string
	children: ReactNode
	className?: string
}) {
	const messageId = useId()
	const control =
		isValidElement(children) && typeof children.type === 'string'
			? cloneElement(children as ReactElement<Record<string, unknown>>, {
					'aria-invalid': error ? true : undefined,
					'aria-describedby': error || hint ? messageId : undefined
				})
			: children
	// The hint and the message sit outside the <label>, so they describe the field instead of joining its name.
	return (
		<div className={className}>
			<label className="block">
				<span className="mb-1 block text-sm font-medium">{label}</span>
				{control}
			</label>
			{hint && !error && (
				<span id={messageId} className="mt-1 block text-xs text-base-content/70">
					{hint}
				</span>
			)}
			{error && (
				<span id={messageId} className="mt-1 block text-xs text-error" role="alert">
					{error}
				</span>
			)}
		</div>
	)
}

/** What every labelled field takes: the Field's words and layout, and the value as text with its setter. */
interface LabelledProps {
	label: string
	error?: string | null
	hint?: string
	className?: string
	value: string
	onValue: (value: string) => void
}

/**
 * A labelled field: the Field (label, message, hint, layout) around the control `render` draws from the rest of the
 * props, given the value as text and the change handler that hands the new text to `onValue`.
 */
function labelled<P extends LabelledProps>(
	{ label, error, hint, className, value, onValue, ...control }: P,
	render: (
		control: Omit<P, keyof LabelledProps>,
		bound: { value: string; onChange: (e: { target: { value: string } }) => void }
	) => ReactNode
) {
	return (
		<Field label={label} error={error} hint={hint} className={className}>
			{render(control, { value, onChange: (e) => onValue(e.target.value) })}
		</Field>
	)
}

/**
 * A labelled text box, the one way a form writes one: the Field (label, hint, message beside it) around an input
 * whose value arrives as text, already through `mask` when the field has one (CNPJ, phone, MAC...).
 */
export function TextField({
	inputClassName = '',
	...props
}: LabelledProps & { inputClassName?: string } & Omit<InputHTMLAttributes<HTMLInputElement>, 'value' | 'onChange' | 'className'>) {
	return labelled(props, (input, bound) => <input {...input} className={`input w-full ${inputClassName}`.trim()} {...bound} />)
}

/** One choice of a SelectField. */
export interface SelectOption {
	value: string | number
	label: ReactNode
}

/**
 * A labelled drop-down, the one way a form writes one: the Field around a select whose value arrives as text;
 * `placeholder` is the empty first choice ("Selecione…"), `selectClassName` its width.
 */
export function SelectField({
	placeholder,
	options,
	selectClassName = 'w-full',
	...props
}: LabelledProps & { placeholder?: string; options: readonly SelectOption[]; selectClassName?: string } & Omit<
		SelectHTMLAttributes<HTMLSelectElement>,
		'value' | 'onChange' | 'className'
	>) {
	return labelled(props, (select, bound) => (
		<select {...select} className={`select ${selectClassName}`} {...bound}>
			{placeholder !== undefined && <option value="">{placeholder}</option>}
			{options.map((o) => (
				<option key={o.value} value={o.value}>
					{o.label}
				</option>
			))}
		</select>
	))
}

/** A labelled multi-line text box: the Field around a textarea whose value arrives as text. */
export function TextareaField({
	textareaClassName = '',
	...props
}: LabelledProps & { textareaClassName?: string } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'value' | 'onChange' | 'className'>) {
	return labelled(props, (textarea, bound) => (
		<textarea {...textarea} className={`textarea w-full ${textareaClassName}`.trim()} {...bound} />
	))
}

/**
 * An on/off switch with its words beside it (Ativo, Urgente, Ativar API...). `toggleClassName` sizes and colours
 * the switch; `className` lays out the label around it.
 */
export function ToggleField({
	label,
	checked,
	onChecked,
	className = 'flex items-center gap-3 text-sm',
	toggleClassName = 'toggle-success'
}: {
	label: ReactNode
	checked: boolean
	onChecked: (checked: boolean) => void
	className?: string
	toggleClassName?: string
}) {
	return (
		<label className={className}>
			<input type="checkbox" className={`toggle ${toggleClassName}`} checked={checked} onChange={(e) => onChecked(e.target.checked)} />
			<span>{label}</span>
		</label>
	)
}

/**
 * Money typed and shown the Brazilian way (issue 14, point 9): "149,90", never "149.9". The value is the text as
 * typed; `parseMoneyText` reads it as reais. Leaving the field writes it back with two decimals.
 */
export function MoneyInput({
	value,
	onChange,
	className = 'input w-full',
	...rest
}: { value: string; onChange: (text: string) => void; className?: string } & Omit<
	InputHTMLAttributes<HTMLInputElement>,
	'value' | 'onChange' | 'type'
>) {
	return (
		<input
			{...rest}
			className={className}
			inputMode="decimal"
			value={value}
			onChange={(e) => onChange(e.target.value.replace(/[^\d.,R$\s-]/g, ''))}
			onBlur={() => {
				const reais = parseMoneyText(value)
				if (reais !== null && Number.isFinite(reais)) onChange(moneyText(reais))
			}}
		/>
	)
}

/** A labelled money field (MoneyInput inside a Field), marked invalid with its message beside it. */
export function MoneyField(props: LabelledProps) {
	return labelled(props, (_, { value }) => (
		<MoneyInput value={value} onChange={props.onValue} aria-invalid={props.error ? true : undefined} />
	))
}

/** A labelled password field with a show/hide button named after the label ("Mostrar senha atual"). */
export function PasswordInput({
	label,
	onChange,
	error,
	...input
}: { label: string; onChange: (value: string) => void; error?: string | null } & Omit<
	InputHTMLAttributes<HTMLInputElement>,
	'onChange' | 'type' | 'className'
>) {
	const [visible, setVisible] = useState(false)
	const messageId = useId()
	return (
		<div>
			<label className="block">
				<span className="mb-1 block text-sm font-medium">{label}</span>
				<span className="input flex w-full items-center gap-2">
					<input
						{...input}
						type={visible ? 'text' : 'password'}
						className="grow"
						aria-invalid={error ? true : undefined}
						aria-describedby={error ? messageId : undefined}
						onChange={(e) => onChange(e.target.value)}
					/>
					<button
						type="button"
						className="btn btn-ghost btn-xs btn-circle"
						aria-label={`${visible ? 'Ocultar' : 'Mostrar'} ${label.toLowerCase()}`}
						aria-pressed={visible}
						onClick={() => setVisible((v) => !v)}
					>
						{visible ? <EyeOff className="size-4" /> : <Eye className="size-4" />}
					</button>
				</span>
			</label>
			{error && (
				<span id={messageId} className="mt-1 block text-xs text-error" role="alert">
					{error}
				</span>
			)}
		</div>
	)
}

/** A round placeholder avatar with a person's initials: `lg` on the profile, small in lists. */
export function InitialsAvatar({ name, size = 'sm' }: { name: string; size?: 'sm' | 'lg' }) {
	const lg = size === 'lg'
	return (
		<div className="avatar avatar-placeholder">
			<div className={lg ? 'w-16 rounded-full bg-primary text-primary-content' : 'w-9 rounded-full bg-primary/10 text-primary'}>
				<span className={lg ? 'text-xl font-semibold' : 'text-xs font-semibold'}>{initials(name)}</span>
			</div>
		</div>
	)
}

/** Ativo / Inativo (or other words) of a record's on/off flag. */
export function ActiveBadge({ active, labels = ['Ativo', 'Inativo'] }: { active: boolean; labels?: [string, string] }) {
	return <span className={`badge badge-sm badge-soft ${active ? 'badge-success' : 'badge-ghost'}`}>{active ? labels[0] : labels[1]}</span>
}

/**
 * The Editar / Excluir button of a table row or card: an icon with `label` as its accessible name;
 * `size="xs"` in dense tables, `withText` adds the word under the lg breakpoint (cards on phones).
 */
export function RowAction({
	kind,
	label,
	onClick,
	size = 'sm',
	withText = false
}: {
	kind: 'edit' | 'delete'
	label: string
	onClick: () => void
	size?: 'sm' | 'xs'
	withText?: boolean
}) {
	const word = kind === 'edit' ? 'Editar' : 'Excluir'
	const Icon = kind === 'edit' ? Pencil : Trash2
	return (
		<button
			type="button"
			className={`btn btn-ghost ${size === 'xs' ? 'btn-xs' : 'btn-sm'}${kind === 'delete' ? ' text-error' : ''}`}
			aria-label={label}
			title={word}
			onClick={onClick}
		>
			<Icon className="size-4" />
			{withText && <span className="lg:hidden">{word}</span>}
		</button>
	)
}

/** The Editar and Excluir buttons of a row, named after it ("Editar Ana"); no Excluir without `onDelete`. */
export function EditDeleteActions({
	name,
	onEdit,
	onDelete,
	size,
	withText
}: {
	name: string
	onEdit: () => void
	onDelete?: () => void
	size?: 'sm' | 'xs'
	withText?: boolean
}) {
	return (
		<>
			<RowAction kind="edit" label={`Editar ${name}`} onClick={onEdit} size={size} withText={withText} />
			{onDelete && <RowAction kind="delete" label={`Excluir ${name}`} onClick={onDelete} size={size} withText={withText} />}
		</>
	)
}

const isoToText = (value: string) => (/^\d{4}-\d{2}-\d{2}$/.test(value) ? formatDate(value) : value)
const textToValue = (text: string) => (text === '' ? '' : (brDateToIso(text) ?? text))

/**
 * The one date field: typed as dd/mm/aaaa whatever the browser's language (a native date input follows it, and an
 * English browser would show mm/dd/yyyy), with the browser's calendar one click away. The value goes in and out as
 * YYYY-MM-DD, '' when empty; an incomplete or impossible date comes out as typed, marked here and refused by the server.
 */
export function DateInput({
	value,
	onChange,
	min,
	max,
	disabled,
	className = 'w-full'
}: {
	value: string
	onChange: (value: string) => void
	min?: string
	max?: string
	disabled?: boolean
	className?: string
}) {
	const [text, setText] = useState(() => isoToText(value))
	const picker = useRef<HTMLInputElement>(null)
	// A new value from outside (a dialog opened on another company, a reset) replaces what is shown.
	useEffect(() => {
		if (textToValue(text) !== value) setText(isoToText(value))
	}, [value])
	const invalid = text !== '' && brDateToIso(text) === null
	const type = (next: string) => {
		setText(next)
		onChange(textToValue(next))
	}
	return (
		<span className={`block ${className}`}>
			<span className={`input flex w-full items-center gap-1 pr-1 ${invalid ? 'input-error' : ''}`}>
				<input
					className="grow"
					inputMode="numeric"
					placeholder="dd/mm/aaaa"
					maxLength={10}
					value={text}
					disabled={disabled}
					aria-invalid={invalid || undefined}
					onChange={(e) => type(maskDate(e.target.value))}
				/>
				<input
					ref={picker}
					type="date"
					className="sr-only"
					tabIndex={-1}
					aria-hidden="true"
					value={brDateToIso(text) ?? ''}
					min={min}
					max={max}
					disabled={disabled}
					onChange={(e) => type(e.target.value ? formatDate(e.target.value) : '')}
				/>
				<button
					type="button"
					className="btn btn-ghost btn-xs btn-square"
					aria-label="Abrir calendário"
					disabled={disabled}
					onClick={() => picker.current?.showPicker()}
				>
					<CalendarDays className="size-4" aria-hidden="true" />
				</button>
			</span>
			{invalid && text.length === 10 && <span className="mt-1 block text-xs text-error">Data inexistente.</span>}
			{invalid && text.length < 10 && <span className="mt-1 block text-xs text-base-content/70">Complete a data: dd/mm/aaaa.</span>}
		</span>
	)
}
