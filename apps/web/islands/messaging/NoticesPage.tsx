import { useStore } from '@nanostores/react'
import { AlertTriangle, Megaphone, Plus, UserRound } from 'lucide-react'
import { Suspense, lazy, useState } from 'react'
import { can, formatBrDate, formatCnpj, formatDate } from '../../../../modules/core'
import type { GeneralNotice, IndividualNotice } from '../../../../modules/messaging/model'
import { type Column, ListScreen, titleColumn } from '../../components/ListScreen'
import { PageRoot } from '../../components/PageRoot'
import { Tabs } from '../../components/Tabs'
import { ActiveBadge, EditDeleteActions, StatCard, StatCardSkeleton } from '../../components/ui'
import { localList } from '../../lib/list'
import { mutate } from '../../lib/mutate'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'
import { type Draft, type Kind, LABEL, NOTICE_KEYS, TITLE } from './notice-words'

const NoticeDialog = lazy(() => import('./NoticeDialog'))

/** A general notice, or an individual one with its representative. */
type Notice = GeneralNotice & Partial<Pick<IndividualNotice, 'representante_id' | 'representante'>>

const fold = (text: string) => text.toLocaleLowerCase('pt-BR')
const matches = (n: Notice, search: string) =>
	!search || [n.titulo, n.texto, n.representante?.nome ?? '', n.representante_id ?? ''].some((v) => fold(v).includes(search))
const compare = {
	titulo: (a: Notice, b: Notice) => a.titulo.localeCompare(b.titulo, 'pt-BR'),
	urgente: (a: Notice, b: Notice) => a.urgente - b.urgente,
	ativo: (a: Notice, b: Notice) => a.ativo - b.ativo,
	data: (a: Notice, b: Notice) => (a.data < b.data ? -1 : a.data > b.data ? 1 : a.id - b.id)
}
const spec = (prefix?: string) => ({ prefix, sorts: ['data', 'titulo', 'urgente', 'ativo'], order: 'desc' as const })

/** Both lists are short and held whole; the individual one keeps its view under its own prefix in the address. */
const LISTS = {
	general: localList<'GET /api/notices/general', Notice>(
		{ route: 'GET /api/notices/general', spec: spec() },
		{ rows: (d) => d, match: matches, compare }
	),
	individual: localList<'GET /api/notices/individual', Notice>(
		{ route: 'GET /api/notices/individual', spec: spec('individuais.') },
		{ rows: (d) => d, match: matches, compare }
	)
}

/** The tab in the address (?aba=individual), so a link opens the right one. */
function readTab(): Kind {
	return typeof location !== 'undefined' && new URLSearchParams(location.search).get('aba') === 'individual' ? 'individual' : 'general'
}
function writeTab(tab: Kind) {
	const url = new URL(location.href)
	if (tab === 'individual') url.searchParams.set('aba', 'individual')
	else url.searchParams.delete('aba')
	history.replaceState(history.state, '', url)
}

function Counters() {
	const general = useStore(LISTS.general.$data)
	const individual = useStore(LISTS.individual.$data)
	const urgent = (general.data ?? []).filter((n) => n.urgente).length + (individual.data ?? []).filter((n) => n.urgente).length
	return (
		<div className="grid grid-cols-3 gap-2 sm:gap-3">
			{general.loading && !general.data ? (
				<StatCardSkeleton />
			) : (
				<StatCard title="Avisos Gerais" value={general.data?.length ?? 0} icon={<Megaphone className="size-5" />} />
			)}
			{individual.loading && !individual.data ? (
				<StatCardSkeleton />
			) : (
				<StatCard title="Avisos Individuais" value={individual.data?.length ?? 0} icon={<UserRound className="size-5" />} tone="info" />
			)}
			{(general.loading && !general.data) || (individual.loading && !individual.data) ? (
				<StatCardSkeleton />
			) : (
				<StatCard title="Urgentes" value={urgent} icon={<AlertTriangle className="size-5" />} tone="error" />
			)}
		</div>
	)
}

/** Gerenciamento de Avisos (2-administration §2.3): general and individual notices. */
function Notices() {
	const user = useStore($user)
	const [tab, setTabState] = useState<Kind>(readTab)
	const [draft, setDraft] = useState<Draft | null>(null)
	const role = user?.tipo
	const canWrite = tab === 'general' ? can(role, 'notices.general.manage') : can(role, 'notices.individual')
	const chooses = can(role, 'notices.chooseRepresentative')
	const setTab = (next: Kind) => {
		setTabState(next)
		writeTab(next)
	}

	function openNew() {
		setDraft({ id: null, representante_id: chooses ? '' : (user?.cnpj ?? ''), titulo: '', texto: '', urgente: false, ativo: true })
	}
	function openEdit(n: Notice) {
		setDraft({
			id: n.id,
			representante_id: n.representante_id ?? '',
			titulo: n.titulo,
			texto: n.texto,
			urgente: !!n.urgente,
			ativo: !!n.ativo
		})
	}
	async function remove(n: Notice) {
		const ok = await confirmAction({
			title: `Excluir ${LABEL[tab]}`,
			message: `Tem certeza que deseja excluir o aviso "${n.titulo}"? Esta ação não pode ser desfeita.`,
			confirmLabel: 'Excluir',
			destructive: true
		})
		if (!ok) return
		const toasts = { success: { title: `${TITLE[tab]} excluído` }, errorTitle: `Erro ao excluir ${LABEL[tab]}`, invalidate: NOTICE_KEYS }
		if (tab === 'general') await mutate('DELETE /api/notices/general/:id', { params: { id: n.id } }, toasts)
		else await mutate('DELETE /api/notices/individual/:id', { params: { id: n.id } }, toasts)
	}

	const columns: Column<Notice>[] = [
		titleColumn<Notice>({ header: 'Título', sort: 'titulo' }, (n) => <span className="font-medium">{n.titulo}</span>),
		...(tab === 'individual'
			? [
					{
						key: 'representante',
						header: 'Representante',
						cell: (n: Notice) => n.representante?.nome || (n.representante_id ? formatCnpj(n.representante_id) : '')
					}
				]
			: []),
		{
			key: 'texto',
			header: 'Texto',
			cell: (n) => <span className="line-clamp-2 max-w-md whitespace-pre-line text-base-content/80">{n.texto}</span>,
			className: 'max-w-md'
		},
		{
			key: 'urgencia',
			header: 'Urgência',
			sort: 'urgente',
			cell: (n) =>
				n.urgente ? <span className="badge badge-error badge-sm">Urgente</span> : <span className="badge badge-ghost badge-sm">Normal</span>
		},
		{ key: 'status', header: 'Status', sort: 'ativo', cell: (n) => <ActiveBadge active={Boolean(n.ativo)} /> },
		{ key: 'data', header: 'Data', sort: 'data', cell: (n) => formatDate(n.data), className: 'whitespace-nowrap' }
	]

	return (
		<div className="space-y-5">
			<Counters />
			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<Tabs
					tabs={(['general', 'individual'] as const).map((id) => ({
						id,
						label: id === 'general' ? 'Avisos Gerais' : 'Avisos Individuais'
					}))}
					value={tab}
					onChange={setTab}
					label="Tipo de aviso"
				/>
				{canWrite && (
					<button type="button" className="btn btn-primary" onClick={openNew}>
						<Plus className="size-4" /> {tab === 'general' ? 'Novo Aviso Geral' : 'Novo Aviso Individual'}
					</button>
				)}
			</div>
			<ListScreen
				key={tab}
				source={LISTS[tab]}
				noun={{ one: 'aviso', many: 'avisos' }}
				caption={tab === 'general' ? 'Avisos gerais' : 'Avisos individuais'}
				search={{ placeholder: 'Buscar avisos...' }}
				columns={columns}
				rowKey={(n) => n.id}
				cardTitle={(n) => n.titulo}
				csv={{
					filename: tab === 'general' ? 'avisos-gerais.csv' : 'avisos-individuais.csv',
					rows: (rows) => [
						['Título', ...(tab === 'individual' ? ['Representante'] : []), 'Texto', 'Urgência', 'Status', 'Data'],
						...rows.map((n) => [
							n.titulo,
							...(tab === 'individual' ? [n.representante?.nome ?? n.representante_id ?? ''] : []),
							n.texto,
							n.urgente ? 'Urgente' : 'Normal',
							n.ativo ? 'Ativo' : 'Inativo',
							formatBrDate(n.data)
						])
					]
				}}
				empty={{ icon: <Megaphone className="size-8" /> }}
				actions={
					canWrite
						? (n) => <EditDeleteActions name={`aviso ${n.titulo}`} onEdit={() => openEdit(n)} onDelete={() => remove(n)} />
						: undefined
				}
			/>
			{draft && (
				<Suspense fallback={null}>
					<NoticeDialog kind={tab} draft={draft} lockedRepresentative={!chooses} onClose={() => setDraft(null)} />
				</Suspense>
			)}
		</div>
	)
}

export default function NoticesPage() {
	return (
		<PageRoot>
			<Notices />
		</PageRoot>
	)
}
