import { useStore } from '@nanostores/react'
import { Send } from 'lucide-react'
import { useMemo, useState } from 'react'
import { CARNE_MESSAGES, type EventType, parcelStatusLabel, whatsappPhoneField } from '../../../../modules/billing/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field } from '../../components/ui'
import { fieldErrors } from '../../lib/form'
import { $companyOptions } from '../../stores/companies'

const STATUS_TONE: Record<string, string> = {
	Pago: 'badge-success',
	Pendente: 'badge-warning',
	Vencido: 'badge-error',
	Cancelado: 'badge-ghost',
	Indefinido: 'badge-neutral'
}

/** A parcel's status as 3-billing-messaging §4 words it ('Indefinido' in the monitor, 'Pendente' in the carnê view). */
export function ParcelStatusBadge({ status, where = 'monitor' }: { status: string; where?: 'carne' | 'monitor' }) {
	const label = parcelStatusLabel(status, where)
	return <span className={`badge badge-soft badge-sm ${STATUS_TONE[label] ?? ''}`}>{label}</span>
}

const CARNE_TONE: Record<string, [string, string]> = {
	ativo: ['badge-success', 'Ativo'],
	cancelado: ['badge-ghost', 'Cancelado'],
	quitado: ['badge-info', 'Quitado']
}
export function CarneStatusBadge({ status }: { status: string }) {
	const [tone, label] = CARNE_TONE[status] ?? ['badge-neutral', status]
	return <span className={`badge badge-soft badge-sm ${tone}`}>{label}</span>
}

export const EVENT_LABELS: Record<EventType, string> = {
	pagamento: 'Pagamento',
	cancelamento: 'Cancelamento',
	estorno: 'Estorno',
	vencimento: 'Vencimento'
}
const EVENT_TONE: Record<EventType, string> = {
	pagamento: 'badge-success',
	cancelamento: 'badge-ghost',
	estorno: 'badge-warning',
	vencimento: 'badge-error'
}
export function EventBadge({ tipo }: { tipo: EventType }) {
	return <span className={`badge badge-soft badge-sm ${EVENT_TONE[tipo]}`}>{EVENT_LABELS[tipo]}</span>
}

/**
 * The company picker of the carnê form and the filters: the companies of the user's scope (limit 1000, as the
 * spec asks), narrowed by typing so it stays usable with thousands of them.
 */
export function CompanyPicker({
	value,
	onChange,
	allLabel,
	label = 'Empresa',
	error
}: {
	value: string
	onChange: (codigo: string) => void
	/** With it, the first option is 'all companies' (value ''). */
	allLabel?: string
	label?: string
	error?: string
}) {
	const options = useStore($companyOptions)
	const [search, setSearch] = useState('')
	const companies = options.data?.companies ?? []
	const shown = useMemo(() => {
		const term = search.trim().toLowerCase()
		const digits = term.replace(/\D/g, '')
		const matches = term
			? companies.filter((c) => c.razao.toLowerCase().includes(term) || (digits.length >= 3 && c.cnpj.includes(digits)))
			: companies
		const list = matches.slice(0, 200)
		// The chosen company stays an option even when the search hides it.
		const chosen = companies.find((c) => String(c.codigo) === value)
		return chosen && !list.includes(chosen) ? [chosen, ...list] : list
	}, [companies, search, value])
	const placeholder = options.loading
		? 'Carregando empresas...'
		: options.error
			? 'Failed to fetch companies'
			: (allLabel ?? 'Selecione uma empresa')
	return (
		<Field label={label} error={error}>
			<span className="flex flex-col gap-1">
				{companies.length > 20 && (
					<input
						type="search"
						className="input input-sm w-full"
						placeholder="Buscar empresa por nome ou CNPJ"
						aria-label={`Buscar ${label.toLowerCase()}`}
						value={search}
						onChange={(e) => setSearch(e.target.value)}
					/>
				)}
				<select
					className={`select w-full ${error ? 'select-error' : ''}`}
					aria-label={label}
					aria-invalid={error ? true : undefined}
					value={value}
					onChange={(e) => onChange(e.target.value)}
				>
					<option value="">{placeholder}</option>
					{shown.map((c) => (
						<option key={c.codigo} value={String(c.codigo)}>
							{c.razao}
						</option>
					))}
				</select>
			</span>
		</Field>
	)
}

/** The phone dialog of a WhatsApp send: a summary, the phone (55 + DDD + number), send disabled while blank. */
export function WhatsappDialog({
	open,
	title,
	summary,
	hint,
	onClose,
	onSend
}: {
	open: boolean
	title: string
	summary: React.ReactNode
	hint: string
	onClose: () => void
	onSend: (phone: string) => Promise<boolean>
}) {
	const [phone, setPhone] = useState('')
	const [tried, setTried] = useState(false)
	const [pending, setPending] = useState(false)
	const error = tried ? fieldErrors(whatsappPhoneField, phone)._form : undefined
	async function send(e: React.FormEvent) {
		e.preventDefault()
		setTried(true)
		if (fieldErrors(whatsappPhoneField, phone)._form) return
		setPending(true)
		const ok = await onSend(phone.replace(/\D/g, ''))
		setPending(false)
		if (ok) {
			setPhone('')
			setTried(false)
			onClose()
		}
	}
	return (
		<Modal
			open={open}
			onClose={onClose}
			title={title}
			footer={
				<ModalActions
					onCancel={onClose}
					form="whatsapp-form"
					pending={pending}
					disabled={phone.trim() === ''}
					label="Enviar"
					icon={<Send className="size-4" aria-hidden="true" />}
				/>
			}
		>
			<form id="whatsapp-form" className="space-y-4" onSubmit={send} noValidate>
				<div className="rounded-box bg-base-200 p-3 text-sm">{summary}</div>
				<Field label="Telefone (WhatsApp)" error={error} hint={hint}>
					<input
						className="input w-full"
						inputMode="numeric"
						autoComplete="tel"
						placeholder="5585999999999"
						value={phone}
						onChange={(e) => setPhone(e.target.value)}
					/>
				</Field>
				<p className="sr-only">{CARNE_MESSAGES.phone}</p>
			</form>
		</Modal>
	)
}
