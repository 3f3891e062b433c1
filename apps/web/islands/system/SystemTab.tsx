import { useStore } from '@nanostores/react'
import { Archive, Database, Download, Eraser, Plus, ShieldAlert } from 'lucide-react'
import { useState } from 'react'
import { formatDateTime } from '../../../../modules/core'
import type { AccessRefusal } from '../../../../modules/auth/model'
import type { BackupInfo } from '../../../../modules/system/model'
import { SettingsTab } from './SettingsTab'
import { type Column, Rows } from '../../components/Rows'
import { EmptyState, ErrorPanel, RowAction, StatCard, StatGrid } from '../../components/ui'
import { errorText } from '../../lib/api'
import { confirmThenMutate, deleteQuestion, mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'

type Backup = BackupInfo

const $info = routeStore('GET /api/system/info')
const $stats = routeStore('GET /api/system/backup/stats')
const $backups = routeStore('GET /api/system/backup/list')
const $refusals = routeStore('GET /api/auth/refusals')

function InfoRow({ label, children }: { label: string; children: React.ReactNode }) {
	return (
		<div className="flex items-center justify-between gap-3 border-b border-base-300 py-2 text-sm last:border-0">
			<dt className="text-base-content/70">{label}</dt>
			<dd className="text-right font-medium">{children}</dd>
		</div>
	)
}

function SystemInfoCard({ isAdmin }: { isAdmin: boolean }) {
	const info = useStore($info)
	const [clearing, setClearing] = useState(false)

	async function clearCache() {
		setClearing(true)
		await mutate(
			'POST /api/system/clear-cache',
			{},
			{ success: { title: 'Cache limpo', description: (r) => r.message }, errorTitle: 'Erro ao limpar cache' }
		)
		setClearing(false)
	}

	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
			<div className="flex items-center gap-3">
				<Database className="size-5 text-primary" aria-hidden="true" />
				<h3 className="text-lg font-semibold">Informações do sistema</h3>
			</div>
			{info.error ? (
				<div className="mt-4">
					<ErrorPanel title="Erro ao carregar informações" message={errorText(info.error)} onRetry={() => $info.revalidate()} />
				</div>
			) : !info.data ? (
				<div className="skeleton mt-4 h-36" />
			) : (
				<dl className="mt-3">
					<InfoRow label="Versão">v{info.data.version}</InfoRow>
					<InfoRow label="Banco de dados">{info.data.database}</InfoRow>
					<InfoRow label="Última atualização">{info.data.lastUpdate ? formatDateTime(info.data.lastUpdate) : '—'}</InfoRow>
					<InfoRow label="Status">
						<span className="badge badge-success badge-soft">{info.data.status}</span>
					</InfoRow>
				</dl>
			)}
			{isAdmin && (
				<button type="button" className="btn btn-sm mt-4" onClick={clearCache} disabled={clearing}>
					{clearing ? <span className="loading loading-spinner loading-xs" /> : <Eraser className="size-4" />} Limpar Cache
				</button>
			)}
			{isAdmin && (
				<p className="mt-2 text-xs text-base-content/70">Remove sessões expiradas e otimiza as estatísticas do banco de dados.</p>
			)}
		</section>
	)
}

function BackupCard() {
	const stats = useStore($stats)
	const list = useStore($backups)
	const [creating, setCreating] = useState(false)

	async function create() {
		setCreating(true)
		await mutate(
			'POST /api/system/backup/manual',
			{},
			{
				success: { title: 'Backup criado', description: (r) => r.filename },
				errorTitle: 'Erro ao criar backup',
				invalidate: ['/api/system/backup']
			}
		)
		setCreating(false)
	}

	function remove(b: Backup) {
		return confirmThenMutate(
			deleteQuestion('Excluir backup', `Excluir o backup "${b.filename}"? Esta ação não pode ser desfeita.`),
			'DELETE /api/system/backup/:filename',
			{ params: { filename: b.filename } },
			{
				success: { title: 'Backup deletado', description: b.filename },
				errorTitle: 'Erro ao deletar backup',
				invalidate: ['/api/system/backup']
			}
		)
	}

	const columns: Column<Backup>[] = [
		{ key: 'arquivo', header: 'Arquivo', cell: (b) => <span className="font-mono text-xs break-all">{b.filename}</span>, hideOnCard: true },
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

	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<div className="flex items-center gap-3">
					<Archive className="size-5 shrink-0 text-primary" aria-hidden="true" />
					<div>
						<h3 className="text-lg font-semibold">Backups</h3>
						<p className="text-sm text-base-content/70">
							Banco de dados e arquivos enviados, em um arquivo .tar.gz. Para restaurar um backup, o portal precisa ser parado: peça ao
							responsável pelo servidor.
						</p>
					</div>
				</div>
				<button type="button" className="btn btn-primary" onClick={create} disabled={creating}>
					{creating ? <span className="loading loading-spinner loading-sm" /> : <Plus className="size-4" />} Criar Backup
				</button>
			</div>
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
			<div className="mt-4">
				{list.error ? (
					<ErrorPanel title="Erro ao carregar backups" message={errorText(list.error)} onRetry={() => $backups.revalidate()} />
				) : !list.data ? (
					<div className="skeleton h-28 w-full" role="status" aria-busy="true" aria-label="Carregando" />
				) : list.data.backups.length === 0 ? (
					<EmptyState title="Nenhum backup ainda" hint="Crie o primeiro com 'Criar Backup'." icon={<Archive className="size-8" />} />
				) : (
					<Rows
						rows={list.data.backups}
						columns={columns}
						rowKey={(b) => b.filename}
						cardTitle={(b) => <span className="font-mono text-xs break-all">{b.filename}</span>}
						caption="Backups"
						actions={(b) => (
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
						)}
					/>
				)}
			</div>
		</section>
	)
}

const STATUS_LABEL: Record<number, string> = { 401: '401 sem sessão', 403: '403 perfil sem permissão', 404: '404 fora do escopo' }

/** Refused authorisations since the server started, grouped by caller, route and status (issue 13). */
function RefusalsCard() {
	const list = useStore($refusals)
	const columns: Column<AccessRefusal>[] = [
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
	return (
		<section className="rounded-box border border-base-300 bg-base-100 p-4 sm:p-6">
			<div className="flex items-center gap-3">
				<ShieldAlert className="size-5 shrink-0 text-primary" aria-hidden="true" />
				<div>
					<h3 className="text-lg font-semibold">Acessos recusados</h3>
					<p className="text-sm text-base-content/70">
						Chamadas recusadas desde o último início do servidor, agrupadas por quem, rota e motivo (por até 1 hora cada linha).
					</p>
				</div>
			</div>
			<div className="mt-4">
				{list.error ? (
					<ErrorPanel title="Erro ao carregar acessos recusados" message={errorText(list.error)} onRetry={() => $refusals.revalidate()} />
				) : !list.data ? (
					<div className="skeleton h-28 w-full" role="status" aria-busy="true" aria-label="Carregando" />
				) : list.data.refusals.length === 0 ? (
					<EmptyState
						title="Nenhum acesso recusado"
						hint="Nada foi recusado desde o último início."
						icon={<ShieldAlert className="size-8" />}
					/>
				) : (
					<Rows
						rows={list.data.refusals}
						columns={columns}
						rowKey={(r) => `${r.who}|${r.ip}|${r.method} ${r.route}|${r.status}|${r.firstAt}`}
						cardTitle={(r) => r.who}
						caption="Acessos recusados"
					/>
				)}
			</div>
		</section>
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
