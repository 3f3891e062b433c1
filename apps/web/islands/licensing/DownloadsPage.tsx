import { Download as DownloadIcon, ExternalLink, Sparkles, ToggleRight } from 'lucide-react'
import { lazy } from 'react'
import { can, formatBrDate, isHttpUrl } from '../../../../modules/core'
import type { Download } from '../../../../modules/downloads/model'
import { ListScreen, EditorDialog, useEditor, SummaryCards, dateColumn, titleColumn } from '../../components/ListScreen'
import { RolePage } from '../../components/PageRoot'
import { AddButton, ActiveBadge, PageActions, EditDeleteActions, StatCard } from '../../components/ui'
import { localList } from '../../lib/list'
import { confirmThenMutate, deleteQuestion } from '../../lib/mutate'

const DownloadDialog = lazy(() => import('./DownloadDialog'))

/** A short list, held whole: searched, sorted and paged here. */
const downloadsList = localList<'GET /api/downloads', Download>(
	{ route: 'GET /api/downloads', spec: { sorts: ['titulo', 'ativo', 'data'] } },
	{
		rows: (data) => data,
		match: (d, search) => !search || d.titulo.toLowerCase().includes(search) || d.link.toLowerCase().includes(search),
		compare: {
			titulo: (a, b) => a.titulo.localeCompare(b.titulo, 'pt-BR'),
			ativo: (a, b) => a.ativo - b.ativo,
			data: (a, b) => (a.data < b.data ? -1 : a.data > b.data ? 1 : 0)
		}
	}
)

function remove(d: Download) {
	return confirmThenMutate(
		deleteQuestion('Excluir download?', `"${d.titulo}" deixará de aparecer para todos.`),
		'DELETE /api/downloads/:id',
		{ params: { id: d.id } },
		{
			success: { title: 'Download excluído', description: d.titulo },
			errorTitle: 'Erro ao excluir download',
			invalidate: ['GET /api/downloads']
		}
	)
}

/** The three cards above the list, counted from the list held whole. */
function Stats() {
	const weekAgo = Date.now() - 7 * 86_400_000
	return (
		<SummaryCards source={downloadsList} read={(data) => data} count={3} className="mb-5 grid grid-cols-3 gap-2 sm:gap-3">
			{(all) => (
				<>
					<StatCard title="Total" value={all.length} icon={<DownloadIcon className="size-5" />} />
					<StatCard title="Ativos" value={all.filter((d) => d.ativo).length} icon={<ToggleRight className="size-5" />} tone="success" />
					<StatCard
						title="Novos nos últimos 7 dias"
						value={all.filter((d) => Date.parse(d.data) >= weekAgo).length}
						icon={<Sparkles className="size-5" />}
						tone="info"
					/>
				</>
			)}
		</SummaryCards>
	)
}

/** Downloads de Sistemas (2-administration §2.4). */
function Downloads({ manages }: { manages: boolean }) {
	const editor = useEditor<Download>()
	return (
		<div>
			{manages && (
				<PageActions>
					<AddButton label="Novo Download" onClick={editor.create} small />
				</PageActions>
			)}
			<Stats />
			<ListScreen
				source={downloadsList}
				noun={{ one: 'download', many: 'downloads' }}
				search={{ placeholder: 'Buscar download...', label: 'Buscar download' }}
				rowKey={(d) => d.id}
				cardTitle={(d) => d.titulo}
				csv={{
					filename: 'downloads.csv',
					rows: (rows) => [
						['Título', 'Link', 'Status', 'Data de criação'],
						...rows.map((d) => [d.titulo, d.link, d.ativo ? 'Ativo' : 'Inativo', formatBrDate(d.data)])
					]
				}}
				columns={[
					titleColumn<Download>({ header: 'Título', sort: 'titulo' }, (d) => <span className="font-medium">{d.titulo}</span>),
					{
						key: 'link',
						header: 'Link',
						cell: (d) => (
							<span className="block max-w-xs truncate text-xs text-base-content/70" title={d.link}>
								{d.link}
							</span>
						)
					},
					{ key: 'status', header: 'Status', sort: 'ativo', cell: (d) => <ActiveBadge active={Boolean(d.ativo)} /> },
					dateColumn<Download>('Data de Criação', (d) => d.data, 'data')
				]}
				actions={(d) => (
					<>
						{isHttpUrl(d.link) && (
							<a className="btn btn-ghost btn-xs" href={d.link} target="_blank" rel="noopener noreferrer" aria-label={`Abrir ${d.titulo}`}>
								<ExternalLink className="size-4" />
							</a>
						)}
						{manages && <EditDeleteActions name={d.titulo} onEdit={() => editor.edit(d)} onDelete={() => remove(d)} size="xs" />}
					</>
				)}
				empty={{ icon: <DownloadIcon className="size-10" />, hint: manages ? 'Cadastre o primeiro instalador.' : undefined }}
			/>
			{manages && <EditorDialog editor={editor}>{(item, close) => <DownloadDialog item={item} onClose={close} />}</EditorDialog>}
		</div>
	)
}

export default function DownloadsPage() {
	return <RolePage>{(role) => <Downloads manages={can(role, 'downloads.manage')} />}</RolePage>
}
