import { useStore } from '@nanostores/react'
import { AlertTriangle, Megaphone, Plus, UserRound } from 'lucide-react'
import { useMemo, useState } from 'react'
import { formatCnpj, formatDate, isoDateInSaoPaulo } from '../../../../modules/core'
import type { GeneralNotice, IndividualNotice } from '../../../../modules/messaging/model'
import { type Column, DataTable } from '../../components/DataTable'
import { Modal, ModalActions } from '../../components/Modal'
import { PageRoot } from '../../components/PageRoot'
import { ActiveBadge, EmptyState, ErrorPanel, Field, RowAction, SearchInput, StatCard, StatCardSkeleton } from '../../components/ui'
import { errorText } from '../../lib/api'
import { useDebounced } from '../../lib/hooks'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'

/** A general notice, or an individual one with its representative. */
type Notice = GeneralNotice & Partial<Pick<IndividualNotice, 'representante_id' | 'representante'>>
type Kind = 'general' | 'individual'

const $general = routeStore('GET /api/notices/general')
const $individual = routeStore('GET /api/notices/individual')
const $recipients = routeStore('GET /api/notices/recipients')

const LABEL: Record<Kind, string> = { general: 'aviso geral', individual: 'aviso individual' }
const TITLE: Record<Kind, string> = { general: 'Aviso geral', individual: 'Aviso individual' }

function matches(n: Notice, search: string) {
	if (!search) return true
	const q = search.toLocaleLowerCase('pt-BR')
	return [n.titulo, n.texto, n.representante?.nome ?? '', n.representante_id ?? ''].some((v) => v.toLocaleLowerCase('pt-BR').includes(q))
}

interface Draft {
	id: number | null
	representante_id: string
	titulo: string
	texto: string
	urgente: boolean
	ativo: boolean
}

function NoticeDialog({ kind, draft, onClose }: { kind: Kind; draft: Draft | null; onClose: () => void }) {
	const user = useStore($user)
	const recipients = useStore($recipients)
	const [form, setForm] = useState<Draft | null>(draft)
	const [errors, setErrors] = useState<Record<string, string>>({})
	const [saving, setSaving] = useState(false)
	// The dialog is remounted (key) for every opening, so the draft is only its starting value.
	const current = form
	const set = <K extends keyof Draft>(key: K, value: Draft[K]) => setForm({ ...(current as Draft), [key]: value })
	const isRep = user?.tipo === 'representante'

	async function save() {
		if (!current) return
		const next: Record<string, string> = {}
		if (kind === 'individual' && !current.representante_id) next.representante_id = 'Selecione um representante'
		if (!current.titulo.trim()) next.titulo = 'Título é obrigatório'
		if (!current.texto.trim()) next.texto = 'Texto do aviso é obrigatório'
		setErrors(next)
		if (Object.keys(next).length) return
		setSaving(true)
		const editing = current.id !== null
		const body = {
			titulo: current.titulo.trim(),
			texto: current.texto.trim(),
			urgente: current.urgente ? 1 : 0,
			ativo: current.ativo ? 1 : 0,
			// 2-administration §7: a new notice carries today's date; an edit keeps its own.
			...(editing ? {} : { data: isoDateInSaoPaulo(new Date()) })
		} as const
		const toasts = {
			success: { title: `${TITLE[kind]} ${editing ? 'atualizado' : 'criado'}` },
			errorTitle: `Erro ao ${editing ? 'atualizar' : 'criar'} ${LABEL[kind]}`,
			invalidate: ['/api/notices', '/api/notifications']
		}
		const individual = { ...body, representante_id: current.representante_id }
		const id = current.id ?? 0
		const done =
			kind === 'general'
				? editing
					? await mutate('PUT /api/notices/general/:id', { params: { id }, body }, toasts)
					: await mutate('POST /api/notices/general', { body }, toasts)
				: editing
					? await mutate('PUT /api/notices/individual/:id', { params: { id }, body: individual }, toasts)
					: await mutate('POST /api/notices/individual', { body: individual }, toasts)
		setSaving(false)
		if (done) close()
	}

	function close() {
		setForm(null)
		setErrors({})
		onClose()
	}

	return (
		<Modal
			open={draft !== null}
			onClose={close}
			title={`${current?.id ? 'Editar' : 'Novo'} ${LABEL[kind]}`}
			footer={<ModalActions onCancel={close} onConfirm={save} pending={saving} label={current?.id ? 'Salvar' : 'Criar aviso'} />}
		>
			{current && (
				<form
					className="space-y-4"
					noValidate
					onSubmit={(e) => {
						e.preventDefault()
						save()
					}}
				>
					{kind === 'individual' && (
						<Field label="Representante" error={errors.representante_id}>
							<select
								className="select w-full"
								value={current.representante_id}
								disabled={isRep}
								onChange={(e) => set('representante_id', e.target.value)}
								aria-invalid={!!errors.representante_id}
							>
								<option value="">{recipients.loading ? 'Carregando...' : 'Selecione um representante'}</option>
								{(recipients.data ?? []).map((r) => (
									<option key={r.cnpj} value={r.cnpj}>
										{r.nome} · {formatCnpj(r.cnpj)}
									</option>
								))}
							</select>
						</Field>
					)}
					<Field label="Título" error={errors.titulo}>
						<input
							className="input w-full"
							maxLength={100}
							value={current.titulo}
							onChange={(e) => set('titulo', e.target.value)}
							aria-invalid={!!errors.titulo}
						/>
					</Field>
					<Field label="Texto" error={errors.texto} hint={`${current.texto.length}/1000 caracteres`}>
						<textarea
							className="textarea h-32 w-full"
							maxLength={1000}
							value={current.texto}
							onChange={(e) => set('texto', e.target.value)}
							aria-invalid={!!errors.texto}
						/>
					</Field>
					<div className="flex flex-wrap gap-6">
						<label className="flex cursor-pointer items-center gap-3">
							<input
								type="checkbox"
								className="toggle toggle-error"
								checked={current.urgente}
								onChange={(e) => set('urgente', e.target.checked)}
							/>
							<span>Urgente</span>
						</label>
						<label className="flex cursor-pointer items-center gap-3">
							<input
								type="checkbox"
								className="toggle toggle-success"
								checked={current.ativo}
								onChange={(e) => set('ativo', e.target.checked)}
							/>
							<span>Ativo</span>
						</label>
					</div>
					<button type="submit" hidden />
				</form>
			)}
		</Modal>
	)
}

function Notices() {
	const user = useStore($user)
	const general = useStore($general)
	const individual = useStore($individual)
	const [tab, setTab] = useState<Kind>('general')
	const [search, setSearch] = useState('')
	const debounced = useDebounced(search)
	const [draft, setDraft] = useState<Draft | null>(null)
	const isAdmin = user?.tipo === 'administrador'
	const isRep = user?.tipo === 'representante'

	const lists = { general, individual }
	const active = lists[tab]
	const rows = useMemo(() => active.data?.filter((n) => matches(n, debounced)), [active.data, debounced])
	const urgent = (general.data ?? []).filter((n) => n.urgente).length + (individual.data ?? []).filter((n) => n.urgente).length
	const canWrite = tab === 'general' ? isAdmin : !!user

	function openNew() {
		setDraft({ id: null, representante_id: isRep ? (user?.cnpj ?? '') : '', titulo: '', texto: '', urgente: false, ativo: true })
	}
	function openEdit(n: Notice) {
		// 2-administration §4: when editing, a falsy ativo comes back as 1.
		setDraft({
			id: n.id,
			representante_id: n.representante_id ?? '',
			titulo: n.titulo,
			texto: n.texto,
			urgente: !!n.urgente,
			ativo: !!(n.ativo || 1)
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
		const toasts = {
			success: { title: `${TITLE[tab]} excluído` },
			errorTitle: `Erro ao excluir ${LABEL[tab]}`,
			invalidate: ['/api/notices', '/api/notifications']
		}
		if (tab === 'general') await mutate('DELETE /api/notices/general/:id', { params: { id: n.id } }, toasts)
		else await mutate('DELETE /api/notices/individual/:id', { params: { id: n.id } }, toasts)
	}

	const columns: Column<Notice>[] = [
		{ header: 'Título', cell: (n) => <span className="font-medium">{n.titulo}</span>, hideOnCard: true },
		...(tab === 'individual'
			? [
					{
						header: 'Representante',
						cell: (n: Notice) => n.representante?.nome || (n.representante_id ? formatCnpj(n.representante_id) : '')
					}
				]
			: []),
		{
			header: 'Texto',
			cell: (n) => <span className="line-clamp-2 max-w-md whitespace-pre-line text-base-content/80">{n.texto}</span>,
			className: 'max-w-md'
		},
		{
			header: 'Urgência',
			cell: (n) =>
				n.urgente ? <span className="badge badge-error badge-sm">Urgente</span> : <span className="badge badge-ghost badge-sm">Normal</span>
		},
		{
			header: 'Status',
			cell: (n) => <ActiveBadge active={Boolean(n.ativo)} />
		},
		{ header: 'Data', cell: (n) => formatDate(n.data), className: 'whitespace-nowrap' }
	]

	return (
		<div className="space-y-5">
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

			<div className="flex flex-col gap-3 sm:flex-row sm:items-center sm:justify-between">
				<div role="tablist" className="tabs tabs-box w-fit">
					{(['general', 'individual'] as const).map((k) => (
						<button
							key={k}
							type="button"
							role="tab"
							aria-selected={tab === k}
							className={`tab ${tab === k ? 'tab-active' : ''}`}
							onClick={() => setTab(k)}
						>
							{k === 'general' ? 'Avisos Gerais' : 'Avisos Individuais'}
						</button>
					))}
				</div>
				{canWrite && (
					<button type="button" className="btn btn-primary" onClick={openNew}>
						<Plus className="size-4" /> {tab === 'general' ? 'Novo Aviso Geral' : 'Novo Aviso Individual'}
					</button>
				)}
			</div>

			<SearchInput value={search} onChange={setSearch} placeholder="Buscar avisos..." />

			{active.error ? (
				<ErrorPanel
					title="Erro ao carregar avisos"
					message={errorText(active.error)}
					onRetry={() => (tab === 'general' ? $general : $individual).revalidate()}
				/>
			) : (
				<DataTable
					rows={rows}
					loading={active.loading}
					columns={columns}
					rowKey={(n) => n.id}
					cardTitle={(n) => n.titulo}
					caption={tab === 'general' ? 'Avisos gerais' : 'Avisos individuais'}
					empty={
						<EmptyState
							title="Nenhum aviso encontrado"
							hint={debounced ? 'Tente outra busca.' : undefined}
							icon={<Megaphone className="size-8" />}
						/>
					}
					actions={
						canWrite
							? (n) => (
									<>
										<RowAction kind="edit" label={`Editar aviso ${n.titulo}`} onClick={() => openEdit(n)} />
										<RowAction kind="delete" label={`Excluir aviso ${n.titulo}`} onClick={() => remove(n)} />
									</>
								)
							: undefined
					}
				/>
			)}
			<NoticeDialog key={draft ? `${tab}-${draft.id ?? 'new'}` : 'closed'} kind={tab} draft={draft} onClose={() => setDraft(null)} />
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
