import { useStore } from '@nanostores/react'
import { Archive, Database, Download, Eraser, Plus, ShieldAlert } from 'lucide-react'
import type { ReactNode } from 'react'
import { formatDateTime } from '../../../../modules/core'
import type { AccessRefusal } from '../../../../modules/auth/model'
import type { BackupInfo, SystemInfo } from '../../../../modules/system/model'
import { SettingsCard, SettingsTab } from './SettingsTab'
import { type ReadStore, ReadState } from '../../components/ReadState'
import { Rows, type RowsProps } from '../../components/Rows'
import { EmptyState, RowAction, StatCard, StatGrid } from '../../components/ui'
import { confirmThenMutate, deleteQuestion, mutate } from '../../lib/mutate'
import { usePending } from '../../lib/hooks'
import { routeStore } from '../../lib/query'

type Backup = BackupInfo

const $info = routeStore('GET /api/system/info')
const $stats = routeStore('GET /api/system/backup/stats')
const $backups = routeStore('GET /api/system/backup/list')
const $refusals = routeStore('GET /api/auth/refusals')

/** The lines of "Informações do sistema": label and value. */
function infoRows(info: SystemInfo): { label: string; value: ReactNode }[] {
	return [
		{ label: 'Versão', value: `v${info.version}` },
		{ label: 'Banco de dados', value: info.database },
		{ label: 'Última atualização', value: info.lastUpdate ? formatDateTime(info.lastUpdate) : '—' },
		{ label: 'Status', value: <span className="badge badge-success badge-soft">{info.status}</span> }
	]
}

function SystemInfoCard({ isAdmin }: { isAdmin: boolean }) {
	const [clearing, clearCache] = usePending(() =>
		mutate(
			'POST /api/system/clear-cache',
			{},
			{ success: { title: 'Cache limpo', description: (r) => r.message }, errorTitle: 'Erro ao limpar cache' }
		)
	)

	return (
		<SettingsCard icon={<Database className="size-5 text-primary" aria-hidden="true" />} title="Informações do sistema">
			<div className="mt-3">
				<ReadState store={$info} errorTitle="Erro ao carregar informações" skeleton={<div className="skeleton mt-1 h-36" />}>
					{(data) => (
						<dl>
							{infoRows(data).map(({ label, value }) => (
								<div key={label} className="flex items-center justify-between gap-3 border-b border-base-300 py-2 text-sm last:border-0">
									<dt className="text-base-content/70">{label}</dt>
									<dd className="text-right font-medium">{value}</dd>
								</div>
							))}
						</dl>
					)}
				</ReadState>
			</div>
			{isAdmin && (
				<button type="button" className="btn btn-sm mt-4" onClick={clearCache} disabled={clearing}>
					{clearing ? <span className="loading loading-spinner loading-xs" /> : <Eraser className="size-4" />} Limpar Cache
				</button>
			)}
			{isAdmin && (
				<p className="mt-2 text-xs text-base-content/70">Remove sessões expiradas e otimiza as estatísticas do banco de dados.</p>
			)}
		</SettingsCard>
	)
}

/** How a card's list is drawn (Rows' props but the rows): the caption also names it in the error's title. */
type RowsTable<T> = Omit<RowsProps<T>, 'rows'>

/** A card's list read from its store: its error with a retry, a skeleton while it loads, its empty state, or the rows. */
function CardRows<D, T>({
	store,
	rows,
	table,
	empty
}: {
	store: ReadStore<D>
	rows: (data: D) => T[]
	table: RowsTable<T>
	empty: ReactNode
}) {
	return (
		<div className="mt-4">
			<ReadState
				store={store}
				errorTitle={`Erro ao carregar ${table.caption.toLowerCase()}`}
				skeleton={<div className="skeleton h-28 w-full" role="status" aria-busy="true" aria-label="Carregando" />}
				empty={(data) => rows(data).length === 0 && empty}
			>
				{(data) => <Rows rows={rows(data)} {...table} />}
			</ReadState>
		</div>
	)
}

function BackupCard() {
	const stats = useStore($stats)
	// On PostgreSQL a backup needs pg_dump/pg_restore on the server: without them the server says why, and so do we.
	const unavailable = stats.data && !stats.data.disponivel ? stats.data.motivo : null
	const [creating, create] = usePending(() =>
		mutate(
			'POST /api/system/backup/manual',
			{},
			{
				success: { title: 'Backup criado', description: (r) => r.filename },
				errorTitle: 'Erro ao criar backup',
				invalidate: ['GET /api/system/backup/stats', 'GET /api/system/backup/list']
			}
		)
	)

	function remove(b: Backup) {
		return confirmThenMutate(
			deleteQuestion('Excluir backup', `Excluir o backup "${b.filename}"? Esta ação não pode ser desfeita.`),
			'DELETE /api/system/backup/:filename',
			{ params: { filename: b.filename } },
			{
				success: { title: 'Backup deletado', description: b.filename },
				errorTitle: 'Erro ao deletar backup',
				invalidate: ['GET /api/system/backup/stats', 'GET /api/system/backup/list']
			}
		)
	}

	const table: RowsTable<Backup> = {
		caption: 'Backups',
		rowKey: (b) => b.filename,
		cardTitle: (b) => <span className="font-mono text-xs break-all">{b.filename}</span>,
		actions: (b) => (
			<>
				<a
					className="btn btn-ghost btn-sm"
					href={`/api/system/backup/download/${encodeURIComponent(b.filename)}`}
					download={b.filename}
					aria-label={`Baixar ${b.filename}`}
				>
					<Download className="size-4" />
				</a>
				<RowAction kind="delete" label={`Excluir ${b.filename}`} onClick={() => remove(b)} />
			</>
		),
		columns: [
			{
				key: 'arquivo',
				header: 'Arquivo',
				cell: (b) => <span className="font-mono text-xs break-all">{b.filename}</span>,
				hideOnCard: true
			},
			{
				key: 'tipo',
				header: 'Tipo',
				cell: (b) => (
					<span className={`badge badge-sm ${b.type === 'automático' ? 'badge-info badge-soft' : 'badge-ghost'}`}>
						{b.type === 'automático' ? 'Automático' : 'Manual'}
					</span>
				)
			},
			{ key: 'tamanho', header: 'Tamanho', cell: (b) => b.sizeFormatted, className: 'whitespace-nowrap' },
			{ key: 'criado', header: 'Criado em', cell: (b) => formatDateTime(b.created), className: 'whitespace-nowrap' }
		]
	}

	return (
		<SettingsCard
			icon={<Archive className="size-5 shrink-0 text-primary" aria-hidden="true" />}
			title="Backups"
			description="Banco de dados e arquivos enviados, em um arquivo .tar.gz. Para restaurar um backup, o portal precisa ser parado: peça ao responsável pelo servidor."
			action={
				<button
					type="button"
					className="btn btn-primary"
					onClick={create}
					disabled={creating || !!unavailable}
					title={unavailable ?? undefined}
				>
					{creating ? <span className="loading loading-spinner loading-sm" /> : <Plus className="size-4" />} Criar Backup
				</button>
			}
		>
			{unavailable && (
				<div role="status" className="alert alert-warning alert-soft mt-4">
					{unavailable}
				</div>
			)}
			<StatGrid count={3} className="mt-4 grid grid-cols-1 gap-3 sm:grid-cols-3">
				{stats.data && (
					<>
						<StatCard title="Total de backups" value={stats.data.totalBackups} />
						<StatCard title="Espaço utilizado" value={stats.data.totalSizeFormatted} />
						<StatCard
							title="Último backup"
							value={<span className="text-base">{stats.data.lastBackup ? formatDateTime(stats.data.lastBackup) : 'Nenhum'}</span>}
						/>
					</>
				)}
			</StatGrid>
			<CardRows
				store={$backups}
				rows={(d) => d.backups}
				table={table}
				empty={<EmptyState title="Nenhum backup ainda" hint="Crie o primeiro com 'Criar Backup'." icon={<Archive className="size-8" />} />}
			/>
		</SettingsCard>
	)
}

const STATUS_LABEL: Record<number, string> = { 401: '401 sem sessão', 403: '403 perfil sem permissão', 404: '404 fora do escopo' }

/** The refusals list: who, route, status, records, how many times, when last. */
const REFUSALS_TABLE: RowsTable<AccessRefusal> = {
	caption: 'Acessos recusados',
	rowKey: (r) => `${r.who}|${r.ip}|${r.method} ${r.route}|${r.status}|${r.firstAt}`,
	cardTitle: (r) => r.who,
	columns: [
		{
			key: 'quem',
			header: 'Quem',
			cell: (r) => (
				<span>
					{r.who}
					<span className="block text-xs text-base-content/70">{r.ip}</span>
				</span>
			)
		},
		{
			key: 'rota',
			header: 'Rota',
			cell: (r) => (
				<span className="font-mono text-xs break-all">
					{r.method} {r.route}
				</span>
			)
		},
		{ key: 'recusa', header: 'Recusa', cell: (r) => STATUS_LABEL[r.status] ?? String(r.status), className: 'whitespace-nowrap' },
		{
			key: 'registros',
			header: 'Registros',
			cell: (r) =>
				r.records.length ? `${r.records.slice(0, 5).join(', ')}${r.distinctRecords > 5 ? ` (${r.distinctRecords} distintos)` : ''}` : '—'
		},
		{ key: 'vezes', header: 'Vezes', cell: (r) => r.count, className: 'text-right' },
		{ key: 'ultima', header: 'Última', cell: (r) => formatDateTime(r.lastAt), className: 'whitespace-nowrap' }
	]
}

/** Refused authorisations since the server started, grouped by caller, route and status (issue 13). */
function RefusalsCard() {
	return (
		<SettingsCard
			icon={<ShieldAlert className="size-5 shrink-0 text-primary" aria-hidden="true" />}
			title="Acessos recusados"
			description="Chamadas recusadas nas últimas 24 horas, agrupadas por quem, rota e motivo (por até 1 hora cada linha)."
		>
			<CardRows
				store={$refusals}
				rows={(d) => d.refusals}
				table={REFUSALS_TABLE}
				empty={
					<EmptyState
						title="Nenhum acesso recusado"
						hint="Nada foi recusado nas últimas 24 horas."
						icon={<ShieldAlert className="size-8" />}
					/>
				}
			/>
		</SettingsCard>
	)
}

export function SystemTab({ isAdmin }: { isAdmin: boolean }) {
	return (
		<SettingsTab open={<SystemInfoCard isAdmin={isAdmin} />} isAdmin={isAdmin} denied="A gestão de backups é exclusiva de administradores.">
			<BackupCard />
			<RefusalsCard />
		</SettingsTab>
	)
}
