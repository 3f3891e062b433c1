import { AlertTriangle, CheckCircle2, Clock, ExternalLink, ListChecks, MessageCircle, QrCode, RefreshCw, Trash2 } from 'lucide-react'
import { lazy, useState } from 'react'
import { type PagamentoParcelaView, canActOnParcel, parcelStatusLabel } from '../../../../modules/billing/model'
import { PARCEL_STATUS_FILTERS, pagamentosRead } from '../../../../modules/billing/reads'
import { carneName, formatCnpj, formatDate, formatReais } from '../../../../modules/core'
import { LazyDialog, ListScreen, SummaryCards, dateColumn, moneyColumn, titleColumn } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import { PageActions, StatCard } from '../../components/ui'
import type { GetRoute } from '../../lib/api'
import { infiniteList } from '../../lib/list'
import { LIVE_PACE, polling } from '../../lib/query'
import { usePending } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { confirmAction } from '../../stores/confirm'
import { COMPANY_DATE_CONTROLS, ClearFilters, DunningSendList, ParcelStatusBadge, RenewalNote } from './carne-parts'

const WhatsappDialog = lazy(() => import('./WhatsappDialog'))
const PixDialog = lazy(() => import('./PixDialog'))

/** The status filter's choices, in the words the parcels' badges use. */
const PARCEL_STATUSES = [['', 'Todos os status'] as const, ...PARCEL_STATUS_FILTERS.map((s) => [s, parcelStatusLabel(s)] as const)]

const INVALIDATE: readonly GetRoute[] = ['GET /api/carnes', 'GET /api/carnes/pagamentos', 'GET /api/historico-pagamentos']

const pagamentosList = infiniteList<'GET /api/carnes/pagamentos', PagamentoParcelaView>(pagamentosRead, {
	rows: (data) => data.parcelas,
	rowKey: (p) => p.id,
	// A parcel paid, removed or cancelled at Asaas shows without a reload (issue 34).
	settings: polling(LIVE_PACE.billing)
})

async function remove(p: PagamentoParcelaView) {
	const ok = await confirmAction({
		title: 'Remover parcela',
		message: 'Tem certeza que deseja remover esta parcela?',
		confirmLabel: 'Remover',
		destructive: true
	})
	if (!ok) return
	await mutate(
		'DELETE /api/carnes/pagamentos/:id',
		{ params: { id: String(p.id) } },
		{ success: { title: 'Parcela removida com sucesso' }, errorTitle: 'Erro ao remover parcela', invalidate: INVALIDATE }
	)
}

/** Pagamentos de Parcelas (3-billing-messaging §2): the cards, the filters, the instalments and their actions. */
export default function PagamentosParcelasPage() {
	const [sending, setSending] = useState<PagamentoParcelaView | null>(null)
	const [showingPix, setShowingPix] = useState<PagamentoParcelaView | null>(null)
	const [syncing, sync] = usePending(() =>
		mutate(
			'POST /api/carnes/sincronizar',
			{},
			{
				success: { title: 'Sincronizado com o Asaas', description: (r) => r.message },
				errorTitle: 'Erro ao sincronizar',
				invalidate: INVALIDATE
			}
		)
	)
	return (
		<PageRoot>
			<PageActions>
				<div className="flex gap-2">
					<ClearFilters source={pagamentosList} />
					<button type="button" className="btn btn-sm" onClick={sync} disabled={syncing}>
						{syncing ? <span className="loading loading-spinner loading-sm" /> : <RefreshCw className="size-4" aria-hidden="true" />}
						Sincronizar
					</button>
				</div>
			</PageActions>
			<div className="space-y-4">
				<SummaryCards source={pagamentosList} read={(data) => data.resumo} count={4} className="grid grid-cols-2 gap-3 xl:grid-cols-4">
					{(r) => (
						<>
							<StatCard
								title="Total de Parcelas"
								value={r.total}
								hint={formatReais(r.valorTotal)}
								icon={<ListChecks className="size-5" />}
							/>
							<StatCard
								title="Parcelas Pagas"
								value={r.pagas}
								hint={`${formatReais(r.valorRecebido)} recebidos`}
								tone="success"
								icon={<CheckCircle2 className="size-5" />}
							/>
							<StatCard title="Pendentes" value={r.pendentes} tone="warning" icon={<Clock className="size-5" />} />
							<StatCard title="Vencidas" value={r.vencidas} tone="error" icon={<AlertTriangle className="size-5" />} />
						</>
					)}
				</SummaryCards>
				<ListScreen
					source={pagamentosList}
					noun={{ one: 'parcela', many: 'parcelas', feminine: true }}
					caption="Parcelas dos carnês"
					filters={[{ key: 'status', label: 'Status', options: PARCEL_STATUSES }, ...COMPANY_DATE_CONTROLS]}
					rowKey={(p) => p.id}
					skeletonRows={8}
					cardTitle={(p) => (
						<span className="flex flex-wrap items-center gap-2">
							Parcela {p.numeroParcela}/{p.totalParcelas} <ParcelStatusBadge status={p.status} />
						</span>
					)}
					columns={[
						titleColumn<PagamentoParcelaView>({ header: 'Parcela' }, (p) => (
							<span className="whitespace-nowrap font-medium">
								Parcela {p.numeroParcela}/{p.totalParcelas}
							</span>
						)),
						{
							key: 'status',
							header: 'Status',
							hideOnCard: true,
							cell: (p) => (
								<div className="space-y-1">
									<ParcelStatusBadge status={p.status} />
									<DunningSendList sends={p.regua} compact />
								</div>
							)
						},
						{
							key: 'empresa',
							header: 'Empresa',
							cell: (p) => (
								<span className="block">
									<span className="block font-medium">{p.empresa.razao}</span>
									<span className="block text-xs text-base-content/70">{formatCnpj(p.empresa.cnpj)}</span>
								</span>
							)
						},
						{ key: 'carne', header: 'Carnê', cell: (p) => <span className="text-xs">{carneName(p.carneId)}</span> },
						moneyColumn<PagamentoParcelaView>('Valor', (p) => p.valor),
						dateColumn<PagamentoParcelaView>('Vencimento', (p) => p.dataVencimento),
						{ key: 'pagamento', header: 'Data Pagamento', cell: (p) => (p.dataPagamento ? formatDate(p.dataPagamento) : '—') },
						{
							key: 'linha',
							header: 'Linha Digitável',
							cell: (p) => (p.linhaDigitavel ? <span className="break-all font-mono text-xs">{p.linhaDigitavel}</span> : '—')
						},
						// What its payment did to the licence; a refund keeps the renewal it paid for, and says so (issue 37).
						{
							key: 'renovacao',
							header: 'Licença',
							cell: (p) => (p.renovacao ? <RenewalNote parcel={p} short /> : '—')
						},
						// On the phone's card; the table says it in the status cell.
						{ key: 'regua', header: 'Régua de cobrança', className: 'hidden', cell: (p) => <DunningSendList sends={p.regua} /> }
					]}
					actions={(p) =>
						canActOnParcel(p.status) && (
							<span className="flex flex-wrap gap-1">
								<button type="button" className="btn btn-xs" onClick={() => setSending(p)}>
									<MessageCircle className="size-3.5" aria-hidden="true" />
									Enviar WhatsApp
								</button>
								{p.urlBoleto && (
									<a className="btn btn-xs" href={p.urlBoleto} target="_blank" rel="noopener noreferrer">
										<ExternalLink className="size-3.5" aria-hidden="true" />
										Ver Boleto
									</a>
								)}
								{p.pixCopiaCola && (
									<button type="button" className="btn btn-xs" onClick={() => setShowingPix(p)}>
										<QrCode className="size-3.5" aria-hidden="true" />
										Ver PIX
									</button>
								)}
								<button type="button" className="btn btn-xs btn-error btn-soft" onClick={() => remove(p)}>
									<Trash2 className="size-3.5" aria-hidden="true" />
									Remover
								</button>
							</span>
						)
					}
					empty={{ hint: 'As parcelas aparecem aqui quando um carnê é emitido.' }}
					error={{ title: 'Erro ao buscar pagamentos' }}
				/>
			</div>
			<LazyDialog open={showingPix?.pixCopiaCola != null}>
				{showingPix?.pixCopiaCola && (
					<PixDialog
						code={showingPix.pixCopiaCola}
						summary={
							<>
								<p className="font-medium">{showingPix.empresa.razao}</p>
								<p>
									Parcela {showingPix.numeroParcela}/{showingPix.totalParcelas} · {formatReais(showingPix.valor)} · vence{' '}
									{formatDate(showingPix.dataVencimento)}
								</p>
							</>
						}
						onClose={() => setShowingPix(null)}
					/>
				)}
			</LazyDialog>
			<LazyDialog open={sending !== null}>
				{sending && (
					<WhatsappDialog
						title="Enviar parcela via WhatsApp"
						initialPhone={sending.empresa.fone}
						summary={
							<>
								<p className="font-medium">{sending.empresa.razao}</p>
								<p>
									Parcela {sending.numeroParcela}/{sending.totalParcelas} · {formatReais(sending.valor)} · vence{' '}
									{formatDate(sending.dataVencimento)}
								</p>
							</>
						}
						onClose={() => setSending(null)}
						onSend={(phone) =>
							mutate(
								'POST /api/carnes/pagamentos/:id/whatsapp',
								{ params: { id: String(sending.id) }, body: { phone } },
								{ success: { title: 'Carnê enviado via WhatsApp com sucesso' }, errorTitle: 'Erro ao enviar carnê via WhatsApp' }
							)
						}
					/>
				)}
			</LazyDialog>
		</PageRoot>
	)
}
