import { useStore } from '@nanostores/react'
import { formatCnpj, isoDateInSaoPaulo } from '../../../../modules/core'
import { GeneralNoticeBody, IndividualNoticeBody } from '../../../../modules/messaging/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { type Draft, type Kind, LABEL, NOTICE_KEYS, TITLE } from './notice-words'

const $recipients = routeStore('GET /api/notices/recipients')

/**
 * Novo / Editar aviso (2-administration §2.3, §5.3). Editing shows the notice's real state: an inactive notice
 * stays inactive unless "Ativo" is switched on, and switching it on says it will be published again (issue 14,
 * point 7; the spec's client brought every edited notice back to active without a word).
 */
export default function NoticeDialog({
	kind,
	draft,
	lockedRepresentative,
	onClose
}: {
	kind: Kind
	draft: Draft
	lockedRepresentative: boolean
	onClose: () => void
}) {
	const recipients = useStore($recipients)
	const editing = draft.id !== null
	const wasInactive = editing && !draft.ativo
	const form = useZodForm({
		schema: kind === 'general' ? GeneralNoticeBody : IndividualNoticeBody,
		initial: draft,
		toInput: (v) => ({
			titulo: v.titulo,
			texto: v.texto,
			urgente: v.urgente ? 1 : 0,
			ativo: v.ativo ? 1 : 0,
			// 2-administration §7: a new notice carries today's date; an edit keeps its own.
			...(editing ? {} : { data: isoDateInSaoPaulo(new Date()) }),
			...(kind === 'individual'
				? { representante_id: v.representante_id === '' ? (undefined as unknown as string) : v.representante_id }
				: {})
		})
	})
	const { values, set, errors } = form
	const save = form.submit(async (body) => {
		const toasts = {
			success: { title: `${TITLE[kind]} ${editing ? 'atualizado' : 'criado'}` },
			errorTitle: `Erro ao ${editing ? 'atualizar' : 'criar'} ${LABEL[kind]}`,
			invalidate: NOTICE_KEYS
		}
		const id = draft.id ?? 0
		const individual = body as typeof body & { representante_id: string }
		const done =
			kind === 'general'
				? editing
					? await mutate('PUT /api/notices/general/:id', { params: { id }, body }, toasts)
					: await mutate('POST /api/notices/general', { body }, toasts)
				: editing
					? await mutate('PUT /api/notices/individual/:id', { params: { id }, body: individual }, toasts)
					: await mutate('POST /api/notices/individual', { body: individual }, toasts)
		if (done) onClose()
	})

	return (
		<Modal
			open
			onClose={onClose}
			title={`${editing ? 'Editar' : 'Novo'} ${LABEL[kind]}`}
			footer={<ModalActions onCancel={onClose} onConfirm={save} pending={form.pending} label={editing ? 'Salvar' : 'Criar aviso'} />}
		>
			<form className="space-y-4" noValidate onSubmit={save}>
				{kind === 'individual' && (
					<Field label="Representante" error={errors.representante_id}>
						<select
							className="select w-full"
							value={values.representante_id}
							disabled={lockedRepresentative}
							onChange={(e) => set('representante_id', e.target.value)}
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
					<input className="input w-full" maxLength={100} value={values.titulo} onChange={(e) => set('titulo', e.target.value)} />
				</Field>
				<Field label="Texto" error={errors.texto} hint={`${values.texto.length}/1000 caracteres`}>
					<textarea className="textarea h-32 w-full" maxLength={1000} value={values.texto} onChange={(e) => set('texto', e.target.value)} />
				</Field>
				<div className="flex flex-wrap gap-6">
					<label className="flex cursor-pointer items-center gap-3">
						<input
							type="checkbox"
							className="toggle toggle-error"
							checked={values.urgente}
							onChange={(e) => set('urgente', e.target.checked)}
						/>
						<span>Urgente</span>
					</label>
					<label className="flex cursor-pointer items-center gap-3">
						<input
							type="checkbox"
							className="toggle toggle-success"
							checked={values.ativo}
							onChange={(e) => set('ativo', e.target.checked)}
						/>
						<span>Ativo</span>
					</label>
				</div>
				{wasInactive && (
					<p role="status" className={`rounded-field p-3 text-sm ${values.ativo ? 'bg-warning/15' : 'bg-base-200'}`}>
						{values.ativo
							? 'Ao salvar, este aviso será publicado de novo e voltará a aparecer para quem o recebe.'
							: 'Este aviso está inativo. Ele continua inativo ao salvar; ligue "Ativo" para publicá-lo de novo.'}
					</p>
				)}
				<button type="submit" hidden />
			</form>
		</Modal>
	)
}
