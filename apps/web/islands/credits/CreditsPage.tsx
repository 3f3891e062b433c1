import { useStore } from '@nanostores/react'
import { ArrowRightLeft, CircleCheck, Coins, History, ShoppingCart, Users, Wallet } from 'lucide-react'
import { type ReactNode, lazy, useState } from 'react'
import { can, formatNumber } from '../../../../modules/core'
import type { CreditItem, RepresentativeCreditSummary } from '../../../../modules/credits/model'
import { poolRead, summaryRead, transfersRead } from '../../../../modules/credits/reads'
import { ListScreen, LazyDialog, SummaryCards, cnpjColumn, dateColumn, numberColumn, titleColumn } from '../../components/ListScreen'
import { RolePage } from '../../components/PageRoot'
import { AddButton, ErrorPanel, StatCard } from '../../components/ui'
import { WaitingRenewals } from '../../components/WaitingRenewals'
import { errorText } from '../../lib/api'
import { type RouteRead, serverList } from '../../lib/list'
import { patientRetry } from '../../lib/query'
import { $configuracoes, savedNumber } from '../../lib/settings'

const TransferCreditsDialog = lazy(() => import('./TransferCreditsDialog'))
const AddCreditsDialog = lazy(() => import('./AddCreditsDialog'))

/** Days of licence per credit, from app.valor_credito_dia (33 by default, 2-administration §9). */
function useDays() {
	const config = useStore($configuracoes)
	const perCredit = savedNumber(config.data, 'app.valor_credito_dia', 33)
	return (credits: number) => `${formatNumber(credits * perCredit)} dias`
}

/** A representative's batches or transfers: one list each, told apart in the address by a prefix. */
function creditList(read: RouteRead<'GET /api/credits'>) {
	return serverList<'GET /api/credits', CreditItem>(read, {
		rows: (data) => data.credits,
		exportRoute: 'GET /api/credits/export',
		settings: patientRetry
	})
}

/** One of the page's lists under its heading, which names the section for assistive technology. */
function ListSection({ id, title, children }: { id: string; title: string; children: ReactNode }) {
	return (
		<section aria-labelledby={id} className="space-y-3">
			<h3 id={id} className="text-lg font-semibold">
				{title}
			</h3>
			{children}
		</section>
	)
}

/** Every credits list (the representative's two, the summary) fails with the same words. */
const CREDITS_ERROR = { title: 'Erro ao carregar créditos' }

/** 'Inativo' if ativo is 0; 'Utilizado' if it has a use date; otherwise 'Disponível' (2-administration §4). */
function StatusBadge({ credit }: { credit: CreditItem }) {
	if (!credit.ativo) return <span className="badge badge-ghost">Inativo</span>
	if (credit.data_uso) return <span className="badge badge-neutral badge-soft">Utilizado</span>
	return <span className="badge badge-success badge-soft">Disponível</span>
}

let lists: { pool: ReturnType<typeof creditList>; transfers: ReturnType<typeof creditList> } | null = null

function RepresentativeView() {
	lists ??= { pool: creditList(poolRead), transfers: creditList(transfersRead) }
	const { pool, transfers } = lists
	const poolData = useStore(pool.$data)
	const transfersData = useStore(transfers.$data)
	const [transferOpen, setTransferOpen] = useState(false)
	// One panel when the credits cannot load: no cards, no empty lists under it (issue 14, point 9).
	const failed = poolData.error ?? transfersData.error
	return (
		<div className="space-y-6">
			<div className="flex flex-col gap-2 sm:flex-row sm:justify-end">
				<a href="/autocompra-creditos" className="btn">
					<ShoppingCart className="size-4" aria-hidden="true" /> Comprar Créditos
				</a>
				<button type="button" className="btn btn-primary" onClick={() => setTransferOpen(true)}>
					<ArrowRightLeft className="size-4" aria-hidden="true" /> Transferir para Empresa
				</button>
			</div>
			<WaitingRenewals limit={20} />
			{failed ? (
				<ErrorPanel
					title="Erro ao carregar créditos"
					message={errorText(failed)}
					onRetry={() => {
						pool.retry()
						transfers.retry()
					}}
				/>
			) : (
				<RepresentativeLists />
			)}
			<LazyDialog open={transferOpen}>
				<TransferCreditsDialog onClose={() => setTransferOpen(false)} />
			</LazyDialog>
		</div>
	)
}

function RepresentativeLists() {
	const { pool, transfers } = lists!
	return (
		<>
			<RepresentativeTotals />
			<ListSection id="meus-creditos" title="Meus Créditos">
				<ListScreen
					source={pool}
					noun={{ one: 'lote', many: 'lotes' }}
					caption="Meus Créditos"
					rowKey={(r) => r.id}
					cardTitle={(r) => `Lote #${r.id}`}
					skeletonRows={3}
					columns={[
						titleColumn<CreditItem>({ header: 'ID', sort: 'id' }, (r) => `#${r.id}`),
						{
							key: 'valor',
							header: 'Valor',
							sort: 'valor',
							className: 'tabular-nums',
							cell: (r) =>
								r.valor === r.valor_original ? formatNumber(r.valor) : `${formatNumber(r.valor)} de ${formatNumber(r.valor_original)}`
						},
						dateColumn<CreditItem>('Data Compra', (r) => r.data_compra, 'data_compra'),
						{ key: 'origem', header: 'Origem', cell: (r) => (r.origem === 'compra' ? 'Compra PIX' : 'Administrador') },
						{ key: 'status', header: 'Status', cell: (r) => <StatusBadge credit={r} /> }
					]}
					empty={{
						title: 'Nenhum crédito encontrado',
						hint: 'Compre créditos para renovar as licenças dos seus clientes.',
						icon: <Coins className="size-8" />
					}}
					error={CREDITS_ERROR}
				/>
			</ListSection>
			<ListSection id="transferencias" title="Transferências para Empresas">
				<ListScreen
					source={transfers}
					noun={{ one: 'transferência', many: 'transferências', feminine: true }}
					caption="Transferências para Empresas"
					rowKey={(r) => r.id}
					cardTitle={(r) => r.empresa?.razao ?? '—'}
					skeletonRows={3}
					columns={[
						{ key: 'id', header: 'ID', sort: 'id', cell: (r) => `#${r.id}` },
						titleColumn<CreditItem>({ header: 'Empresa' }, (r) => r.empresa?.razao ?? '—'),
						{ key: 'sistema', header: 'Sistema', cell: (r) => r.sistema ?? '—' },
						numberColumn<CreditItem>('Valor', (r) => r.valor, 'valor'),
						dateColumn<CreditItem>('Data Transferência', (r) => r.data_uso, 'data_uso')
					]}
					empty={{ title: 'Nenhuma transferência realizada', icon: <ArrowRightLeft className="size-8" /> }}
					error={CREDITS_ERROR}
				/>
			</ListSection>
		</>
	)
}

/** The total, available and used cards (credits and the licence days they buy), with each view's own titles. */
function CreditCards({
	totals,
	titles: [total, available, used],
	availableTestId
}: {
	totals: { total: number; disponivel: number; utilizado: number }
	titles: [string, string, string]
	availableTestId?: string
}) {
	const days = useDays()
	return (
		<>
			<StatCard title={total} value={formatNumber(totals.total)} hint={days(totals.total)} icon={<Wallet className="size-5" />} />
			<StatCard
				title={available}
				value={<span data-testid={availableTestId}>{formatNumber(totals.disponivel)}</span>}
				hint={days(totals.disponivel)}
				icon={<CircleCheck className="size-5" />}
				tone="success"
			/>
			<StatCard
				title={used}
				value={formatNumber(totals.utilizado)}
				hint={days(totals.utilizado)}
				icon={<History className="size-5" />}
				tone="info"
			/>
		</>
	)
}

/** The representative's three cards, from the totals the credits list answers with. */
function RepresentativeTotals() {
	return (
		<SummaryCards source={lists!.pool} read={(data) => data.totals} count={3} className="grid gap-4 sm:grid-cols-3">
			{(totals) => (
				<CreditCards
					totals={totals}
					titles={['Total de Créditos', 'Créditos Disponíveis', 'Créditos Utilizados']}
					availableTestId="credits-available"
				/>
			)}
		</SummaryCards>
	)
}

let summaryList: ReturnType<typeof makeSummaryList> | null = null
function makeSummaryList() {
	return serverList<'GET /api/credits/summary', RepresentativeCreditSummary>(summaryRead, {
		rows: (data) => data.representatives,
		exportRoute: 'GET /api/credits/summary/export',
		settings: patientRetry
	})
}

function AdministratorView({ canAdd }: { canAdd: boolean }) {
	summaryList ??= makeSummaryList()
	const [addOpen, setAddOpen] = useState(false)
	return (
		<div className="space-y-6">
			{canAdd && (
				<div className="flex justify-end">
					<AddButton label="Adicionar Créditos" onClick={() => setAddOpen(true)} />
				</div>
			)}
			<WaitingRenewals limit={20} />
			<SummaryCards source={summaryList} read={(data) => data.totals} count={4}>
				{(totals) => (
					<>
						<CreditCards totals={totals} titles={['Total Créditos', 'Disponível', 'Utilizado']} />
						<StatCard
							title="Representantes"
							value={formatNumber(totals.representantesAtivos)}
							hint="com créditos ativos"
							icon={<Users className="size-5" />}
							tone="accent"
						/>
					</>
				)}
			</SummaryCards>
			<ListSection id="resumo" title="Resumo por Representante">
				<ListScreen
					source={summaryList}
					noun={{ one: 'representante', many: 'representantes' }}
					caption="Resumo de créditos por representante"
					search={{ placeholder: 'Buscar representante, empresa ou CNPJ...', label: 'Buscar representante, empresa ou CNPJ' }}
					rowKey={(r) => r.cnpj}
					cardTitle={(r) => r.nome}
					columns={[
						titleColumn<RepresentativeCreditSummary>({ header: 'Representante', sort: 'nome' }, (r) => (
							<span className="font-medium">{r.nome}</span>
						)),
						cnpjColumn(),
						{
							key: 'disponivel',
							header: 'Disponível',
							sort: 'disponivel',
							cell: (r) => <span className="font-semibold text-success">{formatNumber(r.disponivel)}</span>,
							className: 'tabular-nums'
						},
						numberColumn<RepresentativeCreditSummary>('Utilizado', (r) => r.utilizado, 'utilizado'),
						numberColumn<RepresentativeCreditSummary>('Total', (r) => r.total, 'total')
					]}
					empty={{ icon: <Users className="size-8" /> }}
					error={CREDITS_ERROR}
				/>
				<p className="text-xs text-base-content/70">
					O histórico detalhado de lotes foi removido desta tela para melhorar o desempenho; os totais acima vêm direto do servidor.
				</p>
			</ListSection>
			<LazyDialog open={canAdd && addOpen}>
				<AddCreditsDialog onClose={() => setAddOpen(false)} />
			</LazyDialog>
		</div>
	)
}

/** Gerenciamento de Créditos (2-administration §2.1): the representative's view or the administrator's. */
export default function CreditsPage() {
	return (
		<RolePage>
			{(role) => (can(role, 'credits.own') ? <RepresentativeView /> : <AdministratorView canAdd={can(role, 'credits.add')} />)}
		</RolePage>
	)
}
