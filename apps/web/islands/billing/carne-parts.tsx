import { FilterX, Send } from 'lucide-react'
import { useState } from 'react'
import { CARNE_MESSAGES, type EventType, parcelStatusLabel, whatsappPhoneField } from '../../../../modules/billing/model'
import { CompanyPicker } from '../../components/CompanyPicker'
import type { ListFilter } from '../../components/ListScreen'
import { Modal, ModalActions } from '../../components/Modal'
import { Field } from '../../components/ui'
import { fieldErrors } from '../../lib/form'
import type { ListSource } from '../../lib/list'

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

/** The company and date filters both billing lists share: checked in the address, sent as the query, on the toolbar. */
export const COMPANY_DATE_CONTROLS: ListFilter[] = [
	{
		key: 'empresa',
		label: 'Empresa',
		control: (value, set) => <CompanyPicker compact value={value} onChange={set} allLabel="Todas as empresas" />
	},
	{ key: 'dataInicio', label: 'Data Início', date: true },
	{ key: 'dataFim', label: 'Data Fim', date: true }
]

/** 'Limpar Filtros': the list's search and every filter back to their defaults. */
export function ClearFilters<T>({ source }: { source: ListSource<T> }) {
	const defaults = Object.fromEntries(Object.entries(source.spec.filters ?? {}).map(([key, f]) => [key, f.default ?? '']))
	return (
		<button type="button" className="btn btn-sm btn-ghost" onClick={() => source.update({ search: '', filters: defaults })}>
			<FilterX className="size-4" aria-hidden="true" />
			Limpar Filtros
		</button>
	)
}
