import { useStore } from '@nanostores/react'
import { ChevronDown } from 'lucide-react'
import { atom } from 'nanostores'
import { useId, useMemo, useRef, useState } from 'react'
import { formatCnpj } from '../../../modules/core'
import { $companyOptions, type Company } from '../stores/companies'

/** Stands in for the companies until the picker is first used: a filter left at 'all' never loads the list. */
const notLoaded = atom<{ loading: boolean; data?: { companies: Company[] }; error?: unknown }>({ loading: false })

/** How many matches the list shows at once: typing narrows thousands of companies to these. */
const SHOWN = 50

/** The companies whose name or CNPJ (3+ digits) holds the typed text. */
function matching(companies: Company[], text: string): Company[] {
	const term = text.trim().toLocaleLowerCase('pt-BR')
	if (!term) return companies.slice(0, SHOWN)
	const digits = term.replace(/\D/g, '')
	const found: Company[] = []
	for (const c of companies) {
		if (c.razao.toLocaleLowerCase('pt-BR').includes(term) || (digits.length >= 3 && c.cnpj.includes(digits))) found.push(c)
		if (found.length === SHOWN) break
	}
	return found
}

/**
 * The one company picker (carnê form, billing filters): the companies of the user's scope (limit 1000, as the
 * spec asks) in a searchable select, usable with thousands of them. A combobox: type to filter by name or CNPJ,
 * arrows to move, Enter to choose, Escape to close; labelled, its error beside it.
 */
export function CompanyPicker({
	value,
	onChange,
	allLabel,
	label = 'Empresa',
	error,
	compact = false
}: {
	/** The chosen company's code ('' for none, or all). */
	value: string
	onChange: (codigo: string) => void
	/** With it, the first option is 'all companies' (value ''): a filter. */
	allLabel?: string
	label?: string
	error?: string
	/** The filter bar's size: the label beside the field. */
	compact?: boolean
}) {
	// The list (up to 1000 companies, tens of KB) loads when the picker is first touched or already holds a company,
	// not with the page: most visits of a billing list never open it.
	const [touched, setTouched] = useState(false)
	const options = useStore(touched || value !== '' ? $companyOptions : notLoaded)
	const companies = options.data?.companies ?? []
	const chosen = companies.find((c) => String(c.codigo) === value)
	const [text, setText] = useState<string | null>(null)
	const [open, setOpen] = useState(false)
	const [active, setActive] = useState(0)
	const input = useRef<HTMLInputElement>(null)
	const id = useId()
	const shown = useMemo(() => matching(companies, text ?? ''), [companies, text])
	const choices: { value: string; label: string; hint?: string }[] = [
		...(allLabel && !text ? [{ value: '', label: allLabel }] : []),
		...shown.map((c) => ({ value: String(c.codigo), label: c.razao, hint: formatCnpj(c.cnpj) }))
	]
	const loading = options.loading || (touched && !options.data && !options.error)
	const placeholder = loading
		? 'Carregando empresas...'
		: options.error
			? 'Failed to fetch companies'
			: (allLabel ?? 'Selecione uma empresa')

	function close() {
		setOpen(false)
		setText(null)
	}
	function choose(index: number) {
		const choice = choices[index]
		if (!choice) return
		onChange(choice.value)
		close()
	}
	function onKeyDown(e: React.KeyboardEvent<HTMLInputElement>) {
		setTouched(true)
		if (e.key === 'ArrowDown' || e.key === 'ArrowUp') {
			e.preventDefault()
			if (!open) return setOpen(true)
			const step = e.key === 'ArrowDown' ? 1 : -1
			setActive((i) => Math.min(Math.max(i + step, 0), Math.max(choices.length - 1, 0)))
		} else if (e.key === 'Enter' && open) {
			e.preventDefault()
			choose(active)
		} else if (e.key === 'Escape' && open) {
			// Closes the list only, not the dialog around it.
			e.preventDefault()
			e.stopPropagation()
			close()
		}
	}

	const listId = `${id}-list`
	const optionId = (i: number) => `${id}-option-${i}`
	const field = (
		<span className={`relative block ${compact ? 'w-full sm:w-64' : 'w-full'}`}>
			<span className={`input ${compact ? 'input-sm' : ''} w-full ${error ? 'input-error' : ''}`}>
				<input
					ref={input}
					id={id}
					role="combobox"
					aria-autocomplete="list"
					aria-expanded={open}
					aria-controls={listId}
					aria-activedescendant={open && choices[active] ? optionId(active) : undefined}
					aria-invalid={error ? true : undefined}
					aria-describedby={error ? `${id}-error` : undefined}
					autoComplete="off"
					className="grow"
					placeholder={chosen ? chosen.razao : placeholder}
					value={text ?? chosen?.razao ?? (allLabel && !open ? allLabel : '')}
					onChange={(e) => {
						setText(e.target.value)
						setActive(0)
						setOpen(true)
					}}
					onFocus={(e) => {
						setTouched(true)
						e.target.select()
					}}
					onClick={() => setOpen(true)}
					onBlur={close}
					onKeyDown={onKeyDown}
				/>
				<ChevronDown className="size-4 opacity-60" aria-hidden="true" />
			</span>
			{open && (
				<div
					id={listId}
					role="listbox"
					aria-label={label}
					className="absolute z-30 mt-1 flex max-h-72 w-full min-w-64 flex-col overflow-y-auto rounded-box border border-base-300 bg-base-100 p-1 shadow-lg"
				>
					{loading && shown.length === 0 ? (
						<p className="px-3 py-2 text-sm text-base-content/70">Carregando empresas...</p>
					) : choices.length === 0 ? (
						<p className="px-3 py-2 text-sm text-base-content/70">Nenhuma empresa encontrada</p>
					) : (
						choices.map((c, i) => (
							<div
								key={c.value || 'all'}
								id={optionId(i)}
								role="option"
								tabIndex={-1}
								aria-selected={c.value === value}
								className={`cursor-pointer rounded-field px-3 py-1.5 text-sm ${i === active ? 'bg-base-200' : ''}`}
								// Chosen before the input's blur closes the list.
								onMouseDown={(e) => {
									e.preventDefault()
									choose(i)
								}}
								onMouseEnter={() => setActive(i)}
							>
								<span className="block font-medium">{c.label}</span>
								{c.hint && <span className="block text-xs text-base-content/60">{c.hint}</span>}
							</div>
						))
					)}
					{shown.length === SHOWN && <p className="px-3 py-1 text-xs text-base-content/60">Digite para ver outras empresas</p>}
				</div>
			)}
		</span>
	)
	if (compact)
		return (
			<span className="flex items-center gap-2 text-sm">
				<label htmlFor={id} className="shrink-0 text-base-content/70">
					{label}
				</label>
				{field}
			</span>
		)
	return (
		<div>
			<label htmlFor={id} className="mb-1 block text-sm font-medium">
				{label}
			</label>
			{field}
			{error && (
				<span id={`${id}-error`} className="mt-1 block text-xs text-error" role="alert">
					{error}
				</span>
			)}
		</div>
	)
}
