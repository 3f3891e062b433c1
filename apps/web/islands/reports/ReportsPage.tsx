import { useStore } from '@nanostores/react'
import { BarChart3, Building2, Coins, Download, RefreshCw, TrendingDown, TrendingUp, Users } from 'lucide-react'
import { atom } from 'nanostores'
import { useState } from 'react'
import type { Report } from '../../../../modules/reports/model'
import { openingReport } from '../../../../modules/reports/reads'
import { denialOf, formatBrDate, formatCnpj, isIsoDate, formatNumber, formatReais, mayOpen } from '../../../../modules/core'
import { Rows } from '../../components/Rows'
import { PageRoot } from '../../components/PageRoot'
import { AccessDenied, DateInput, EmptyState, ErrorPanel, StatCard, StatGrid, SelectField } from '../../components/ui'
import { errorText } from '../../lib/api'
import { type CsvCell, csvNumber, downloadCsv } from '../../lib/csv'
import { routeStore } from '../../lib/query'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'

type Tipo = Report['tipo']
const TIPOS: { value: Tipo; label: string }[] = [
	{ value: 'geral', label: 'Geral' },
	{ value: 'financeiro', label: 'Financeiro' },
	{ value: 'uso', label: 'Uso' }
]

const $query = atom(openingReport(new Date()))
const $report = routeStore('GET /api/reports', $query)

const monthLabel = (key: string) => {
	const [y, m] = key.split('-').map(Number)
	const label = new Date(Date.UTC(y, m - 1, 15)).toLocaleDateString('pt-BR', { month: 'long', year: 'numeric', timeZone: 'UTC' })
	return label.charAt(0).toUpperCase() + label.slice(1)
}

/** The rows of the CSV for the view on screen. */
export function reportCsv(report: Report, tipo: Tipo): CsvCell[][] {
	const head: CsvCell[][] = [
		['Relatório', TIPOS.find((t) => t.value === tipo)?.label ?? tipo],
		['Período', `${formatBrDate(report.inicio)} a ${formatBrDate(report.fim)}`],
		['Empresas ativas', report.activeCompanies, 'de', report.totalCompanies],
		['Representantes', report.totalRepresentatives],
		['Créditos vendidos no período', report.totalCredits],
		['Créditos utilizados no período', report.usedCredits],
		['Receita no período (R$)', csvNumber(report.revenue, 2)],
		['Receita este mês (R$)', csvNumber(report.revenueThisMonth, 2)],
		['Receita mês anterior (R$)', csvNumber(report.revenueLastMonth, 2)],
		[]
	]
	if (tipo === 'financeiro') {
		return [
			...head,
			['Mês', 'Créditos vendidos', 'Receita (R$)'],
			...report.monthlyRevenue.map((m) => [m.month, m.credits, csvNumber(m.revenue, 2)])
		]
	}
	const systems: CsvCell[][] = [
		['Sistema', 'Empresas', 'Créditos', 'Percentual (%)'],
		...report.systemUsage.map((s) => [s.sistema, s.empresas, s.creditos, csvNumber(s.percentage, 1)])
	]
	if (tipo === 'uso') return [...head, ...systems]
	return [
		...head,
		['Representante', 'CNPJ', 'Empresas', 'Créditos comprados', 'Receita (R$)'],
		...report.topRepresentatives.map((r) => [r.nome, formatCnpj(r.cnpj), r.empresas, r.creditos, csvNumber(r.receita, 2)]),
		[],
		...systems
	]
}

function Bar({ label, pct, detail }: { label: string; pct: number; detail: string }) {
	return (
		<li>
			<div className="mb-1 flex items-center justify-between gap-2 text-sm">
				<span className="font-medium">{label}</span>
				<span className="text-base-content/70">{detail}</span>
			</div>
			<progress className="progress progress-primary w-full" value={pct} max={100} aria-label={`${label}: ${pct.toFixed(1)}%`} />
		</li>
	)
}

function GeneralView({ report }: { report: Report }) {
	const top = report.topRepresentatives[0]?.creditos ?? 0
	return (
		<div className="grid gap-4 lg:grid-cols-2">
			<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="top-reps">
				<h3 id="top-reps" className="mb-4 text-lg font-semibold">
					Principais Representantes
				</h3>
				{report.topRepresentatives.length === 0 ? (
					<EmptyState title="Nenhuma venda de créditos no período" />
				) : (
					<ul className="space-y-4">
						{report.topRepresentatives.map((r) => (
							<Bar
								key={r.cnpj}
								label={r.nome}
								pct={top ? (r.creditos / top) * 100 : 0}
								detail={`${formatNumber(r.creditos)} créditos · ${formatNumber(r.empresas)} empresas`}
							/>
						))}
					</ul>
				)}
			</section>
			<UsageList report={report} />
		</div>
	)
}

function UsageList({ report }: { report: Report }) {
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-5" aria-labelledby="uso-sistemas">
			<h3 id="uso-sistemas" className="mb-4 text-lg font-semibold">
				Uso por Sistema
			</h3>
			<ul className="space-y-4">
				{report.systemUsage.map((s) => (
					<Bar
						key={s.sistema}
						label={s.sistema}
						pct={s.percentage}
						detail={`${formatNumber(s.percentage)}% · ${formatNumber(s.creditos)} créditos · ${formatNumber(s.empresas)} empresas`}
					/>
				))}
			</ul>
		</section>
	)
}

function FinancialView({ report }: { report: Report }) {
	return (
		<section aria-labelledby="receita-mensal" className="space-y-3">
			<h3 id="receita-mensal" className="text-lg font-semibold">
				Receita Mensal
			</h3>
			{report.monthlyRevenue.length === 0 ? (
				<EmptyState title="Nenhum mês no período" />
			) : (
				<Rows
					rows={report.monthlyRevenue}
					rowKey={(r) => r.month}
					caption="Receita mensal"
					cardTitle={(r) => monthLabel(r.month)}
					columns={[
						{ key: 'mes', header: 'Mês', cell: (r) => monthLabel(r.month), hideOnCard: true },
						{ key: 'creditos', header: 'Créditos vendidos', cell: (r) => formatNumber(r.credits), className: 'text-right tabular-nums' },
						{ key: 'receita', header: 'Receita', cell: (r) => formatReais(r.revenue), className: 'text-right tabular-nums' }
					]}
				/>
			)}
		</section>
	)
}

function UsageView({ report }: { report: Report }) {
	return (
		<div className="grid gap-4 sm:grid-cols-2 xl:grid-cols-5">
			{report.systemUsage.map((s) => (
				<div key={s.sistema} className="rounded-box border border-base-300 bg-base-100 p-4">
					<p className="font-semibold">{s.sistema}</p>
					<p className="mt-2 text-2xl font-bold tabular-nums">{formatNumber(s.percentage)}%</p>
					<p className="text-sm text-base-content/70">
						{formatNumber(s.creditos)} créditos · {formatNumber(s.empresas)} empresas
					</p>
					<progress className="progress progress-primary mt-2 w-full" value={s.percentage} max={100} aria-hidden="true" />
				</div>
			))}
		</div>
	)
}

function Reports() {
	const opening = $query.get()
	const [tipo, setTipo] = useState<Tipo>(opening.tipo)
	const [inicio, setInicio] = useState(opening.inicio)
	const [fim, setFim] = useState(opening.fim)
	const { data, loading, error } = useStore($report)

	/** The report type applies at once (issue 14, point 5); the period still waits for Atualizar. */
	function chooseType(next: Tipo) {
		setTipo(next)
		$query.set({ ...$query.get(), tipo: next })
	}

	function refresh() {
		if (!isIsoDate(inicio) || !isIsoDate(fim)) {
			toast({ title: 'Período inválido', description: 'Informe as datas inicial e final completas (dd/mm/aaaa).', variant: 'destructive' })
			return
		}
		if (inicio > fim) {
			toast({ title: 'Período inválido', description: 'A data inicial deve ser anterior ou igual à final.', variant: 'destructive' })
			return
		}
		const current = $query.get()
		if (current.tipo === tipo && current.inicio === inicio && current.fim === fim) $report.revalidate()
		else $query.set({ tipo, inicio, fim })
	}
	function exportCsv() {
		if (!data) return
		downloadCsv(`relatorio-${data.tipo}-${data.inicio}-a-${data.fim}.csv`, reportCsv(data, data.tipo))
	}
	const change = data?.revenueChange

	return (
		<div className="space-y-6">
			<div className="flex flex-col gap-3 rounded-box border border-base-300 bg-base-100 p-4 md:flex-row md:items-end">
				<SelectField
					label="Tipo de relatório"
					selectClassName="w-full md:w-44"
					value={tipo}
					onValue={(v) => chooseType(v as Tipo)}
					options={TIPOS}
				/>
				<label className="block">
					<span className="mb-1 block text-sm font-medium">Data inicial</span>
					<DateInput className="w-full md:w-44" value={inicio} max={fim} onChange={setInicio} />
				</label>
				<label className="block">
					<span className="mb-1 block text-sm font-medium">Data final</span>
					<DateInput className="w-full md:w-44" value={fim} min={inicio} onChange={setFim} />
				</label>
				<div className="flex gap-2 md:ml-auto">
					<button type="button" className="btn grow" onClick={refresh}>
						<RefreshCw className="size-4" aria-hidden="true" /> Atualizar
					</button>
					<button type="button" className="btn btn-primary grow" onClick={exportCsv} disabled={!data}>
						<Download className="size-4" aria-hidden="true" /> Exportar Relatório
					</button>
				</div>
			</div>

			{error ? (
				<ErrorPanel title="Erro ao carregar relatório" message={errorText(error)} onRetry={() => $report.revalidate()} />
			) : !data || loading ? (
				<StatGrid count={4} />
			) : (
				<>
					<StatGrid count={4}>
						<StatCard
							title="Empresas Ativas"
							value={`${formatNumber(data.activeCompanies)} / ${formatNumber(data.totalCompanies)}`}
							hint="ativas / total"
							icon={<Building2 className="size-5" />}
							tone="success"
						/>
						<StatCard
							title="Representantes"
							value={formatNumber(data.totalRepresentatives)}
							icon={<Users className="size-5" />}
							tone="info"
						/>
						<StatCard
							title="Créditos Utilizados"
							value={formatNumber(data.usedCredits)}
							hint={`transferidos no período · ${formatNumber(data.totalCredits)} vendidos`}
							icon={<Coins className="size-5" />}
							tone="warning"
						/>
						<StatCard
							title="Receita Este Mês"
							value={formatReais(data.revenueThisMonth)}
							hint={
								change === null || change === undefined ? (
									'sem receita no mês anterior'
								) : (
									<span className={change >= 0 ? 'text-success' : 'text-error'}>
										{change >= 0 ? (
											<TrendingUp className="inline size-3" aria-hidden="true" />
										) : (
											<TrendingDown className="inline size-3" aria-hidden="true" />
										)}{' '}
										{change >= 0 ? '+' : ''}
										{formatNumber(change)}% vs. mês anterior
									</span>
								)
							}
							icon={<BarChart3 className="size-5" />}
						/>
					</StatGrid>
					{data.tipo === 'financeiro' ? (
						<FinancialView report={data} />
					) : data.tipo === 'uso' ? (
						<UsageView report={data} />
					) : (
						<GeneralView report={data} />
					)}
				</>
			)}
		</div>
	)
}

/** Relatórios (2-administration §2.9): for the roles the page table serves it to. */
export default function ReportsPage() {
	const user = useStore($user)
	return <PageRoot>{mayOpen(user?.tipo, '/reports') ? <Reports /> : <AccessDenied {...denialOf('/reports')} />}</PageRoot>
}
