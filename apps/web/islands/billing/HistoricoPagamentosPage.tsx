import { Ban, CircleDollarSign, History, Wallet } from 'lucide-react'
import { EVENT_LABELS, EVENT_TYPES, type HistoricoEventoView } from '../../../../modules/billing/model'
import { historicoRead } from '../../../../modules/billing/reads'
import { formatCnpj, formatDateTime, formatReais } from '../../../../modules/core'
import { ListScreen, SummaryCards, moneyColumn, titleColumn } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import { PageActions, StatCard } from '../../components/ui'
import { serverList } from '../../lib/list'
import { LIVE_PACE, polling } from '../../lib/query'
import { COMPANY_DATE_CONTROLS, ClearFilters, EventBadge } from './carne-parts'

// A parcel paid, removed or cancelled at Asaas shows without a reload (issue 34).
const historicoList = serverList<'GET /api/historico-pagamentos', HistoricoEventoView>(historicoRead, {
	rows: (data) => data.eventos,
	settings: polling(LIVE_PACE.billing)
})

const company = (e: HistoricoEventoView) => e.empresa?.razao ?? `Empresa ${e.empresa_codigo}`

/** Histórico de Pagamentos (3-billing-messaging §2): the cards, the filters and the events, newest first. */
export default function HistoricoPagamentosPage() {
	return (
		<PageRoot>
			<PageActions>
				<ClearFilters source={historicoList} />
			</PageActions>
			<div className="space-y-4">
				<SummaryCards source={historicoList} read={(data) => data.resumo} count={4} className="grid grid-cols-2 gap-3 xl:grid-cols-4">
					{(r) => (
						<>
							<StatCard title="Total de Eventos" value={r.total} icon={<History className="size-5" />} />
							<StatCard title="Pagamentos" value={r.pagamentos} tone="success" icon={<CircleDollarSign className="size-5" />} />
							<StatCard title="Cancelamentos" value={r.cancelamentos} tone="warning" icon={<Ban className="size-5" />} />
							<StatCard
								title="Valor Total"
								value={formatReais(r.valorTotal)}
								hint="Pagamentos menos estornos"
								tone="accent"
								icon={<Wallet className="size-5" />}
							/>
						</>
					)}
				</SummaryCards>
				<ListScreen
					source={historicoList}
					noun={{ one: 'evento', many: 'eventos' }}
					caption="Eventos de pagamento"
					search={{ placeholder: 'Buscar descrição, evento ID...', label: 'Buscar' }}
					filters={[
						{
							key: 'tipo',
							label: 'Tipo de Evento',
							options: [['', 'Todos os tipos'], ...EVENT_TYPES.map((t) => [t, EVENT_LABELS[t]] as const)]
						},
						...COMPANY_DATE_CONTROLS
					]}
					rowKey={(e) => e.id}
					skeletonRows={8}
					cardTitle={(e) => (
						<span className="flex flex-wrap items-center gap-2">
							<EventBadge tipo={e.tipo_evento} /> <span className="text-sm text-base-content/70">#{e.id}</span> {company(e)}
						</span>
					)}
					columns={[
						titleColumn<HistoricoEventoView>({ header: 'Evento' }, (e) => (
							<span className="flex items-center gap-2 whitespace-nowrap">
								<EventBadge tipo={e.tipo_evento} />
								<span className="text-xs text-base-content/70">#{e.id}</span>
							</span>
						)),
						moneyColumn<HistoricoEventoView>('Valor', (e) => e.valor),
						{
							key: 'data',
							header: 'Data',
							cell: (e) => <span className="whitespace-nowrap tabular-nums">{formatDateTime(e.data_evento)}</span>
						},
						{ key: 'descricao', header: 'Descrição', cell: (e) => e.descricao || 'Sem descrição' },
						{
							key: 'ids',
							header: 'Boleto ID / Evento',
							cell: (e) => (
								<span className="block break-all text-xs">
									<span className="block">{e.boleto_id}</span>
									{e.asaas_evento_id && <span className="block text-base-content/60">{e.asaas_evento_id}</span>}
								</span>
							)
						},
						{
							key: 'empresa',
							header: 'Empresa',
							cell: (e) => (
								<span className="block">
									<span className="block font-medium">{company(e)}</span>
									{e.empresa && <span className="block text-xs text-base-content/70">{formatCnpj(e.empresa.cnpj)}</span>}
								</span>
							)
						}
					]}
					empty={{ hint: 'Os pagamentos e cancelamentos das parcelas aparecem aqui.' }}
					error={{ title: 'Erro ao buscar histórico de pagamentos' }}
				/>
			</div>
		</PageRoot>
	)
}
