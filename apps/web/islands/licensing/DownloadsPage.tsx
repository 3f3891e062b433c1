import { useStore } from '@nanostores/react'
import { Download as DownloadIcon, ExternalLink, Plus, Sparkles, ToggleRight } from 'lucide-react'
import { useEffect, useState } from 'react'
import { formatDate, isHttpUrl } from '../../../../modules/core'
import type { Download } from '../../../../modules/downloads/model'
import { type Column, DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import {
	ActiveBadge,
	EmptyState,
	ErrorPanel,
	Field,
	FormError,
	PageHeader,
	RowAction,
	SearchInput,
	StatCard,
	StatGrid
} from '../../components/ui'
import { errorText } from '../../lib/api'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'

const $downloads = routeStore('GET /api/downloads')

function DownloadDialog({ item, onClose }: { item: Download | null | undefined; onClose: () => void }) {
	const [titulo, setTitulo] = useState('')
	const [link, setLink] = useState('')
	const [ativo, setAtivo] = useState(true)
	const [error, setError] = useState<string | null>(null)
	const open = item !== undefined
	useEffect(() => {
		if (!open) return
		setTitulo(item?.titulo ?? '')
		setLink(item?.link ?? '')
		setAtivo(item ? item.ativo === 1 : true)
		setError(null)
	}, [open, item])
	async function save(e: React.FormEvent) {
		e.preventDefault()
		if (!titulo.trim() || !link.trim()) return setError('Título e link são obrigatórios.')
		const body = { titulo, link, ativo: ativo ? 1 : 0 } as const
		const toasts = {
			success: { title: item ? 'Download atualizado' : 'Download criado', description: titulo },
			errorTitle: item ? 'Erro ao atualizar download' : 'Erro ao criar download',
			invalidate: ['/api/downloads']
		}
		const done = item
			? await mutate('PUT /api/downloads/:id', { params: { id: item.id }, body }, toasts)
			: await mutate('POST /api/downloads', { body }, toasts)
		if (done) onClose()
	}
	return (
		<Modal
			open={open}
			onClose={onClose}
			title={item ? 'Editar download' : 'Novo download'}
			footer={<ModalActions onCancel={onClose} form="download-form" label="Salvar" />}
		>
			<form id="download-form" className="space-y-3" onSubmit={save} noValidate>
				<Field label="Título *">
					<input className="input w-full" value={titulo} maxLength={200} onChange={(e) => setTitulo(e.target.value)} />
				</Field>
				<Field label="Link de Download *">
					<input className="input w-full" type="url" value={link} onChange={(e) => setLink(e.target.value)} placeholder="https://" />
				</Field>
				<label className="flex items-center gap-2 text-sm">
					<input type="checkbox" className="toggle toggle-sm toggle-success" checked={ativo} onChange={(e) => setAtivo(e.target.checked)} />{' '}
					Ativo
				</label>
				<FormError message={error} />
			</form>
		</Modal>
	)
}

function Downloads() {
	const user = useStore($user)
	const { data, loading, error } = useStore($downloads)
	const [search, setSearch] = useState('')
	const [editing, setEditing] = useState<Download | null | undefined>(undefined)
	const isAdmin = user?.tipo === 'administrador'
	const weekAgo = Date.now() - 7 * 86_400_000
	const term = search.trim().toLowerCase()
	const rows = data?.filter((d) => !term || d.titulo.toLowerCase().includes(term) || d.link.toLowerCase().includes(term))

	async function remove(d: Download) {
		if (
			!(await confirmAction({
				title: 'Excluir download?',
				message: `"${d.titulo}" deixará de aparecer para todos.`,
				confirmLabel: 'Excluir',
				destructive: true
			}))
		)
			return
		await mutate(
			'DELETE /api/downloads/:id',
			{ params: { id: d.id } },
			{
				success: { title: 'Download excluído', description: d.titulo },
				errorTitle: 'Erro ao excluir download',
				invalidate: ['/api/downloads']
			}
		)
	}

	const columns: Column<Download>[] = [
		{ header: 'Título', hideOnCard: true, cell: (d) => <span className="font-medium">{d.titulo}</span> },
		{
			header: 'Link',
			cell: (d) => (
				<span className="block max-w-xs truncate text-xs text-base-content/70" title={d.link}>
					{d.link}
				</span>
			)
		},
		{ header: 'Status', cell: (d) => <ActiveBadge active={Boolean(d.ativo)} /> },
		{ header: 'Data de Criação', cell: (d) => formatDate(d.data) }
	]
	return (
		<div>
			<PageHeader title="Downloads de Sistemas" subtitle="Instaladores e atualizações dos sistemas.">
				{isAdmin && (
					<button type="button" className="btn btn-primary btn-sm" onClick={() => setEditing(null)}>
						<Plus className="size-4" /> Novo Download
					</button>
				)}
			</PageHeader>
			<StatGrid count={3} className="mb-5 grid grid-cols-3 gap-2 sm:gap-3">
				{data && (
					<>
						<StatCard title="Total" value={data.length} icon={<DownloadIcon className="size-5" />} />
						<StatCard title="Ativos" value={data.filter((d) => d.ativo).length} icon={<ToggleRight className="size-5" />} tone="success" />
						<StatCard
							title="Novos nos últimos 7 dias"
							value={data.filter((d) => Date.parse(d.data) >= weekAgo).length}
							icon={<Sparkles className="size-5" />}
							tone="info"
						/>
					</>
				)}
			</StatGrid>
			<div className="mb-4">
				<SearchInput value={search} onChange={setSearch} placeholder="Buscar download..." />
			</div>
			{error ? (
				<ErrorPanel title="Erro ao carregar downloads" message={errorText(error)} onRetry={() => $downloads.revalidate()} />
			) : (
				<DataTable
					rows={rows}
					columns={columns}
					rowKey={(d) => d.id}
					loading={loading}
					caption="Downloads"
					cardTitle={(d) => d.titulo}
					actions={(d) => (
						<>
							{isHttpUrl(d.link) && (
								<a
									className="btn btn-ghost btn-xs"
									href={d.link}
									target="_blank"
									rel="noopener noreferrer"
									aria-label={`Abrir ${d.titulo}`}
								>
									<ExternalLink className="size-4" />
								</a>
							)}
							{isAdmin && (
								<>
									<RowAction kind="edit" label={`Editar ${d.titulo}`} onClick={() => setEditing(d)} size="xs" />
									<RowAction kind="delete" label={`Excluir ${d.titulo}`} onClick={() => remove(d)} size="xs" />
								</>
							)}
						</>
					)}
					empty={
						<EmptyState
							icon={<DownloadIcon className="size-10" />}
							title="Nenhum download encontrado"
							hint={isAdmin ? 'Cadastre o primeiro instalador.' : undefined}
						/>
					}
				/>
			)}
			{isAdmin && <DownloadDialog item={editing} onClose={() => setEditing(undefined)} />}
		</div>
	)
}

export default function DownloadsPage() {
	return (
		<PageRoot>
			<Downloads />
		</PageRoot>
	)
}
