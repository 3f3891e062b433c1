import { useStore } from '@nanostores/react'
import { formatCnpj, isoDateInSaoPaulo } from '../../../../modules/core'
import { GeneralNoticeBody, IndividualNoticeBody } from '../../../../modules/messaging/model'
import { FormDialog } from '../../components/Modal'
import { SelectField, TextareaField, TextField, ToggleField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate, saveToasts } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { type Draft, type Kind, LABEL, NOTICE_KEYS, TITLE } from './notice-words'

/** The notice's switches keep the words at the body's size. */
const TOGGLE_LAYOUT = 'flex cursor-pointer items-center gap-3'

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
	const { values, text, toggle } = form
	return (
		<FormDialog
			title={`${editing ? 'Editar' : 'Novo'} ${LABEL[kind]}`}
			form={form}
			send={(body) => {
				const toasts = saveToasts(editing, { title: TITLE[kind], noun: LABEL[kind], invalidate: NOTICE_KEYS })
				const id = draft.id ?? 0
				const individual = body as typeof body & { representante_id: string }
				if (kind === 'general')
					return editing
						? mutate('PUT /api/notices/general/:id', { params: { id }, body }, toasts)
						: mutate('POST /api/notices/general', { body }, toasts)
				return editing
					? mutate('PUT /api/notices/individual/:id', { params: { id }, body: individual }, toasts)
					: mutate('POST /api/notices/individual', { body: individual }, toasts)
			}}
			onClose={onClose}
			submitLabel={editing ? 'Salvar' : 'Criar aviso'}
		>
			{kind === 'individual' && (
				<SelectField
					label="Representante"
					disabled={lockedRepresentative}
					placeholder={recipients.loading ? 'Carregando...' : 'Selecione um representante'}
					options={(recipients.data ?? []).map((r) => ({ value: r.cnpj, label: `${r.nome} · ${formatCnpj(r.cnpj)}` }))}
					{...text('representante_id')}
				/>
			)}
			<TextField label="Título" maxLength={100} {...text('titulo')} />
			<TextareaField
				label="Texto"
				hint={`${values.texto.length}/1000 caracteres`}
				textareaClassName="h-32"
				maxLength={1000}
				{...text('texto')}
			/>
			<div className="flex flex-wrap gap-6">
				<ToggleField label="Urgente" className={TOGGLE_LAYOUT} toggleClassName="toggle-error" {...toggle('urgente')} />
				<ToggleField label="Ativo" className={TOGGLE_LAYOUT} {...toggle('ativo')} />
			</div>
			{wasInactive && (
				<p role="status" className={`rounded-field p-3 text-sm ${values.ativo ? 'bg-warning/15' : 'bg-base-200'}`}>
					{values.ativo
						? 'Ao salvar, este aviso será publicado de novo e voltará a aparecer para quem o recebe.'
						: 'Este aviso está inativo. Ele continua inativo ao salvar; ligue "Ativo" para publicá-lo de novo.'}
				</p>
			)}
		</FormDialog>
	)
}
