import { useStore } from '@nanostores/react'
import { ArrowRightLeft, CircleCheck, Coins, History, Plus, ShoppingCart, Users, Wallet } from 'lucide-react'
import { atom, computed } from 'nanostores'
import { type FormEvent, useEffect, useId, useState } from 'react'
import type { CreditItem } from '../../../../modules/credits/model'
import { formatCnpj, formatDate, formatNumber, formatReais } from '../../../../modules/core'
import { DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { EmptyState, ErrorPanel, SearchInput, StatCard, StatGrid } from '../../components/ui'
import { errorText } from '../../lib/api'
import { useSearch } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { patientRetry, routeStore } from '../../lib/query'
import { numericSetting } from '../../../../modules/settings/model'
import { $configuracoes } from '../../lib/settings'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'
import TransferCreditsDialog from './TransferCreditsDialog'

const $pool = routeStore('GET /api/credits', { page: 1, limit: 200, kind: 'pool' }, patientRetry)
const $transfers = routeStore('GET /api/credits', { page: 1, limit: 200, kind: 'transfer' }, patientRetry)
const $search = atom('')
const $summary = routeStore(
	'GET /api/credits/summary',
	computed($search, (search) => ({ limit: 200, search }))
)
const $allReps = routeStore('GET /api/credits/summary', { limit: 1000 })

const days = (credits: number, perCredit: number) => `${formatNumber(credits * perCredit)} dias`

function useDaysPerCredit() {
	const config = useStore($configuracoes)
	return numericSetting(config.data, 'app.valor_credito_dia')
}

/** 'Inativo' if ativo is 0; 'Utilizado' if it has a use date; otherwise 'Disponível' (2-administration §4). */
function StatusBadge({ credit }: { credit: CreditItem }) {
	if (!credit.ativo) return <span className="badge badge-ghost">Inativo</span>
	if (credit.data_uso) return <span className="badge badge-neutral badge-soft">Utilizado</span>
	return <span className="badge badge-success badge-soft">Disponível</span>
}

function RepresentativeView() {
	const pool = useStore($pool)
	const transfers = useStore($transfers)
	const perCredit = useDaysPerCredit()
	const [transferOpen, setTransferOpen] = useState(false)
	const failed = pool.error ?? transfers.error
	const totals = pool.data?.totals

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
			{failed ? (
				<ErrorPanel
					title="Erro ao carregar créditos"
					message={errorText(failed)}
					onRetry={() => {
						$pool.revalidate()
						$transfers.revalidate()
					}}
				/>
			) : !totals ? (
				<StatGrid count={3} className="grid gap-4 sm:grid-cols-3" />
			) : (
				<StatGrid count={3} className="grid gap-4 sm:grid-cols-3">
					<StatCard
						title="Total de Créditos"
						value={formatNumber(totals.total)}
						hint={days(totals.total, perCredit)}
						icon={<Wallet className="size-5" />}
					/>
					<StatCard
						title="Créditos Disponíveis"
						value={<span data-testid="credits-available">{formatNumber(totals.disponivel)}</span>}
						hint={days(totals.disponivel, perCredit)}
						icon={<CircleCheck className="size-5" />}
						tone="success"
					/>
					<StatCard
						title="Créditos Utilizados"
						value={formatNumber(totals.utilizado)}
						hint={days(totals.utilizado, perCredit)}
						icon={<History className="size-5" />}
						tone="info"
					/>
				</StatGrid>
			)}

			<section aria-labelledby="meus-creditos">
				<h3 id="meus-creditos" className="mb-3 text-lg font-semibold">
					Meus Créditos
				</h3>
				<DataTable
					rows={pool.data?.credits}
					loading={pool.loading}
					rowKey={(r) => r.id}
					caption="Meus Créditos"
					cardTitle={(r) => `Lote #${r.id}`}
					empty={
						<EmptyState
							title="Nenhum crédito encontrado"
							hint="Compre créditos para renovar as licenças dos seus clientes."
							icon={<Coins className="size-8" />}
						/>
					}
					columns={[
						{ header: 'ID', cell: (r) => `#${r.id}`, hideOnCard: true },
						{
							header: 'Valor',
							cell: (r) =>
								r.valor === r.valor_original ? formatNumber(r.valor) : `${formatNumber(r.valor)} de ${formatNumber(r.valor_original)}`,
							className: 'tabular-nums'
						},
						{ header: 'Data Compra', cell: (r) => formatDate(r.data_compra) },
						{ header: 'Status', cell: (r) => <StatusBadge credit={r} /> }
					]}
				/>
			</section>

			<section aria-labelledby="transferencias">
				<h3 id="transferencias" className="mb-3 text-lg font-semibold">
					Transferências para Empresas
				</h3>
				<DataTable
					rows={transfers.data?.credits}
					loading={transfers.loading}
					rowKey={(r) => r.id}
					caption="Transferências para Empresas"
					cardTitle={(r) => r.empresa?.razao ?? '—'}
					empty={<EmptyState title="Nenhuma transferência realizada" icon={<ArrowRightLeft className="size-8" />} />}
					columns={[
						{ header: 'ID', cell: (r) => `#${r.id}` },
						{ header: 'Empresa', cell: (r) => r.empresa?.razao ?? '—', hideOnCard: true },
						{ header: 'Sistema', cell: (r) => r.sistema ?? '—' },
						{ header: 'Valor', cell: (r) => formatNumber(r.valor), className: 'tabular-nums' },
						{ header: 'Data Transferência', cell: (r) => formatDate(r.data_uso) }
					]}
				/>
			</section>
			<TransferCreditsDialog open={transferOpen} onClose={() => setTransferOpen(false)} />
		</div>
	)
}

function AddCreditsDialog({ open, onClose }: { open: boolean; onClose: () => void }) {
	const reps = useStore($allReps)
	const config = useStore($configuracoes)
	const [rep, setRep] = useState('')
	const [amount, setAmount] = useState('1')
	const [unit, setUnit] = useState('')
	const [pending, setPending] = useState(false)
	const ids = { rep: useId(), amount: useId(), unit: useId(), form: useId() }
	const defaultUnit = config.data?.find((e) => e.chave === 'app.valor_credito_individual')?.valor ?? '50.00'
	useEffect(() => {
		if (open) {
			setRep('')
			setAmount('1')
			setUnit(defaultUnit)
		}
	}, [open, defaultUnit])

	async function submit(event: FormEvent) {
		event.preventDefault()
		const qty = Number(amount)
		const value = Number(unit.replace(',', '.'))
		if (!rep)
			return toast({
				title: 'Representante obrigatório',
				description: 'Selecione um representante para adicionar os créditos.',
				variant: 'destructive'
			})
		if (!Number.isInteger(qty) || qty <= 0)
			return toast({
				title: 'Quantidade inválida',
				description: 'A quantidade de créditos deve ser maior que zero.',
				variant: 'destructive'
			})
		if (!Number.isFinite(value) || value <= 0)
			return toast({
				title: 'Valor unitário inválido',
				description: 'O valor unitário do crédito deve ser maior que zero.',
				variant: 'destructive'
			})
		setPending(true)
		const done = await mutate(
			'POST /api/credits',
			{ body: { representanteId: rep, amount: qty, unitValue: value } },
			{
				success: {
					title: 'Créditos adicionados',
					description: `${qty} ${qty === 1 ? 'crédito adicionado' : 'créditos adicionados'} com sucesso.`
				},
				errorTitle: 'Erro ao adicionar créditos',
				invalidate: ['/api/credits', '/api/dashboard', '/api/activities']
			}
		)
		setPending(false)
		if (done) onClose()
	}

	return (
		<Modal
			open={open}
			onClose={onClose}
			title="Adicionar Créditos"
			footer={
				<ModalActions
					onCancel={onClose}
					form={ids.form}
					pending={pending}
					icon={<Plus className="size-4" aria-hidden="true" />}
					label="Adicionar"
				/>
			}
		>
			<form id={ids.form} className="space-y-4" onSubmit={submit} noValidate>
				<div>
					<label htmlFor={ids.rep} className="mb-1 block text-sm font-medium">
						Representante
					</label>
					<select id={ids.rep} className="select w-full" value={rep} onChange={(e) => setRep(e.target.value)}>
						<option value="">{reps.loading ? 'Carregando...' : 'Selecione o representante'}</option>
						{reps.data?.representatives.map((r) => (
							<option key={r.cnpj} value={r.cnpj}>
								{r.nome} — {formatCnpj(r.cnpj)}
							</option>
						))}
					</select>
				</div>
				<div className="grid gap-4 sm:grid-cols-2">
					<div>
						<label htmlFor={ids.amount} className="mb-1 block text-sm font-medium">
							Quantidade
						</label>
						<input
							id={ids.amount}
							className="input w-full"
							type="number"
							min={1}
							step={1}
							inputMode="numeric"
							value={amount}
							onChange={(e) => setAmount(e.target.value)}
						/>
					</div>
					<div>
						<label htmlFor={ids.unit} className="mb-1 block text-sm font-medium">
							Valor unitário (R$)
						</label>
						<input
							id={ids.unit}
							className="input w-full"
							type="number"
							min={0.01}
							step={0.01}
							inputMode="decimal"
							value={unit}
							onChange={(e) => setUnit(e.target.value)}
						/>
					</div>
				</div>
				{Number(amount) > 0 && Number(unit) > 0 && (
					<p className="text-sm text-base-content/70">
						Total: <strong>{formatReais(Number(amount) * Number(unit))}</strong>
					</p>
				)}
			</form>
		</Modal>
	)
}

function AdministratorView({ canAdd }: { canAdd: boolean }) {
	const [text, setText] = useSearch((s) => $search.set(s))
	const summary = useStore($summary)
	const perCredit = useDaysPerCredit()
	const [addOpen, setAddOpen] = useState(false)
	const totals = summary.data?.totals

	return (
		<div className="space-y-6">
			{canAdd && (
				<div className="flex justify-end">
					<button type="button" className="btn btn-primary" onClick={() => setAddOpen(true)}>
						<Plus className="size-4" aria-hidden="true" /> Adicionar Créditos
					</button>
				</div>
			)}
			{summary.error ? (
				<ErrorPanel title="Erro ao carregar créditos" message={errorText(summary.error)} onRetry={() => $summary.revalidate()} />
			) : !totals ? (
				<StatGrid count={4} />
			) : (
				<StatGrid count={4}>
					<StatCard
						title="Total Créditos"
						value={formatNumber(totals.total)}
						hint={days(totals.total, perCredit)}
						icon={<Wallet className="size-5" />}
					/>
					<StatCard
						title="Disponível"
						value={formatNumber(totals.disponivel)}
						hint={days(totals.disponivel, perCredit)}
						icon={<CircleCheck className="size-5" />}
						tone="success"
					/>
					<StatCard
						title="Utilizado"
						value={formatNumber(totals.utilizado)}
						hint={days(totals.utilizado, perCredit)}
						icon={<History className="size-5" />}
						tone="info"
					/>
					<StatCard
						title="Representantes"
						value={formatNumber(totals.representantesAtivos)}
						hint="com créditos ativos"
						icon={<Users className="size-5" />}
						tone="accent"
					/>
				</StatGrid>
			)}
			<section aria-labelledby="resumo" className="space-y-3">
				<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
					<h3 id="resumo" className="text-lg font-semibold">
						Resumo por Representante
					</h3>
					<SearchInput value={text} onChange={setText} placeholder="Buscar representante, empresa ou CNPJ..." />
				</div>
				<DataTable
					rows={summary.data?.representatives}
					loading={summary.loading}
					rowKey={(r) => r.cnpj}
					caption="Resumo de créditos por representante"
					cardTitle={(r) => r.nome}
					empty={<EmptyState title="Nenhum representante encontrado" icon={<Users className="size-8" />} />}
					columns={[
						{ header: 'Representante', cell: (r) => <span className="font-medium">{r.nome}</span>, hideOnCard: true },
						{ header: 'CNPJ', cell: (r) => <span className="font-mono text-xs">{formatCnpj(r.cnpj)}</span> },
						{
							header: 'Disponível',
							cell: (r) => <span className="font-semibold text-success">{formatNumber(r.disponivel)}</span>,
							className: 'text-right tabular-nums'
						},
						{ header: 'Utilizado', cell: (r) => formatNumber(r.utilizado), className: 'text-right tabular-nums' },
						{ header: 'Total', cell: (r) => formatNumber(r.total), className: 'text-right tabular-nums' }
					]}
				/>
				{summary.data && summary.data.matched > summary.data.representatives.length && (
					<p className="text-sm text-base-content/60">
						Mostrando {summary.data.representatives.length} de {formatNumber(summary.data.matched)} representantes. Refine a busca para ver
						os demais.
					</p>
				)}
				<p className="text-xs text-base-content/60">
					O histórico detalhado de lotes foi removido desta tela para melhorar o desempenho; os totais acima vêm direto do servidor.
				</p>
			</section>
			{canAdd && <AddCreditsDialog open={addOpen} onClose={() => setAddOpen(false)} />}
		</div>
	)
}

/** Gerenciamento de Créditos (2-administration §2.1): the representative's view or the administrator's. */
export default function CreditsPage() {
	const user = useStore($user)
	return (
		<PageRoot>
			{user?.tipo === 'representante' ? <RepresentativeView /> : <AdministratorView canAdd={user?.tipo === 'administrador'} />}
		</PageRoot>
	)
}
