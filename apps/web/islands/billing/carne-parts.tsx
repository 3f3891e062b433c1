import { FilterX, RefreshCcw } from 'lucide-react'
import {
	CARNE_STATUSES,
	type CarneParcelaView,
	DUNNING_KIND_LABELS,
	DUNNING_SEND_LABELS,
	type DunningSendView,
	EVENT_LABELS,
	type EventType,
	parcelStatusLabel,
	renewalWords,
	stepLabel
} from '../../../../modules/billing/model'
import { formatDateTime } from '../../../../modules/core'
import { CompanyPicker } from '../../components/CompanyPicker'
import type { ListFilter } from '../../components/ListScreen'
import type { GetRoute } from '../../lib/api'
import type { ListSource } from '../../lib/list'

const STATUS_TONE: Record<string, string> = {
	Pago: 'badge-success',
	Pendente: 'badge-warning',
	Vencido: 'badge-error',
	Cancelado: 'badge-ghost',
	Estornado: 'badge-ghost',
	'Estorno em andamento': 'badge-warning',
	'Em disputa': 'badge-error',
	Indefinido: 'badge-neutral'
}

/** A parcel's status as 3-billing-messaging §4 words it ('Indefinido' in the monitor, 'Pendente' in the carnê view). */
export function ParcelStatusBadge({ status, where = 'monitor' }: { status: string; where?: 'carne' | 'monitor' }) {
	const label = parcelStatusLabel(status, where)
	return <span className={`badge badge-soft badge-sm ${STATUS_TONE[label] ?? ''}`}>{label}</span>
}

const RENEWAL_TONE = { success: 'text-success', warning: 'text-warning', info: 'text-info', muted: 'text-base-content/70' }

/**
 * What a parcel's payment did to the licence (issue 37): renewed until a date, waiting for credits, or why not.
 * `short`: a table cell's words, the whole sentence as its title.
 */
export function RenewalNote({
	parcel,
	short = false
}: {
	parcel: Pick<CarneParcelaView, 'status' | 'renovacao' | 'renovou_ate' | 'renovacao_motivo'>
	short?: boolean
}) {
	const note = renewalWords.parcel(parcel, short)
	if (!note) return null
	return (
		<span
			className={`inline-flex items-center gap-1 text-xs ${RENEWAL_TONE[note.tone]}`}
			title={short ? renewalWords.parcel(parcel)?.text : undefined}
		>
			<RefreshCcw className="size-3.5 shrink-0" aria-hidden="true" />
			{note.text}
		</span>
	)
}

const CARNE_TONE: Record<string, [string, string]> = {
	criando: ['badge-warning', 'Em criação'],
	ativo: ['badge-success', 'Ativo'],
	cancelado: ['badge-ghost', 'Cancelado'],
	quitado: ['badge-info', 'Quitado']
}
/** The Carnês screen's status filter, in the words of the badges. */
export const CARNE_STATUS_OPTIONS: [string, string][] = [
	['', 'Todos os status'],
	...CARNE_STATUSES.map((s): [string, string] => [s, CARNE_TONE[s][1]])
]
export function CarneStatusBadge({ status }: { status: string }) {
	const [tone, label] = CARNE_TONE[status] ?? ['badge-neutral', status]
	return <span className={`badge badge-soft badge-sm ${tone}`}>{label}</span>
}

const EVENT_TONE: Record<EventType, string> = {
	pagamento: 'badge-success',
	cancelamento: 'badge-ghost',
	estorno: 'badge-warning',
	vencimento: 'badge-error',
	pagamento_desfeito: 'badge-warning',
	restauracao: 'badge-info',
	disputa_vencida: 'badge-success',
	renovacao: 'badge-primary'
}
export function EventBadge({ tipo }: { tipo: EventType }) {
	return <span className={`badge badge-soft badge-sm ${EVENT_TONE[tipo]}`}>{EVENT_LABELS[tipo]}</span>
}

/** What a change to a carnê can change elsewhere: the lists to refetch afterwards. */
export const CARNE_KEYS: readonly GetRoute[] = [
	'GET /api/carnes',
	'GET /api/carnes/pagamentos',
	'GET /api/historico-pagamentos',
	'GET /api/admin/financial-stats',
	'GET /api/carnes/renovacoes'
]

/** The company filter of the billing lists (Carnês, Pagamentos de Parcelas, Histórico). */
export const COMPANY_CONTROL: ListFilter = {
	key: 'empresa',
	label: 'Empresa',
	control: (value, set) => <CompanyPicker compact value={value} onChange={set} allLabel="Todas as empresas" />
}

/** The company and date filters both billing lists share: checked in the address, sent as the query, on the toolbar. */
export const COMPANY_DATE_CONTROLS: ListFilter[] = [
	COMPANY_CONTROL,
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

const SEND_TONE: Record<DunningSendView['status'], string> = {
	enviada: 'text-success',
	pendente: 'text-info',
	enviando: 'text-info',
	falhou: 'text-error',
	incerta: 'text-warning',
	ignorada: 'text-base-content/70'
}

/**
 * What the reminder schedule sent about a parcel, and when (or why it did not), one line each; `compact` (the table's
 * status cell) shows how many, and the lines on a click.
 */
export function DunningSendList({ sends, compact = false }: { sends: DunningSendView[]; compact?: boolean }) {
	if (sends.length === 0) return compact ? null : <span className="text-base-content/70">—</span>
	const lines = (
		<ul className={`space-y-0.5 text-xs ${compact ? 'max-w-48' : ''}`} aria-label="Mensagens da régua de cobrança">
			{sends.map((s) => (
				<li key={`${s.tipo}${s.dias}${s.em}`}>
					<span className="font-medium">{s.tipo === 'lembrete' ? stepLabel(s.dias) : DUNNING_KIND_LABELS[s.tipo]}</span>
					{' · '}
					<span className={SEND_TONE[s.status]}>{DUNNING_SEND_LABELS[s.status]}</span> {formatDateTime(s.em)}
					{s.status !== 'enviada' && s.erro && <span className="block text-base-content/70">{s.erro}</span>}
				</li>
			))}
		</ul>
	)
	if (!compact) return lines
	const sent = sends.filter((s) => s.status === 'enviada').length
	return (
		<details className="text-xs">
			<summary className="cursor-pointer whitespace-nowrap text-base-content/70">
				Régua: {sent} {sent === 1 ? 'enviada' : 'enviadas'}
			</summary>
			<div className="mt-1">{lines}</div>
		</details>
	)
}
