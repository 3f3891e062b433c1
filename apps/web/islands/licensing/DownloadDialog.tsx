import { type Download, DownloadBody } from '../../../../modules/downloads/model'
import { Modal, ModalActions } from '../../components/Modal'
import { Field, TextField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'

/** Novo download / Editar download (2-administration §2.4, §5.4). Mounted per opening: no message outlives it. */
export default function DownloadDialog({ item, onClose }: { item: Download | null; onClose: () => void }) {
	const form = useZodForm({
		schema: DownloadBody,
		initial: { titulo: item?.titulo ?? '', link: item?.link ?? '', ativo: item ? item.ativo === 1 : true },
		toInput: (v) => ({
			titulo: v.titulo,
			link: v.link.trim() === '' ? (undefined as unknown as string) : v.link.trim(),
			ativo: v.ativo ? 1 : 0
		})
	})
	const { values, set, errors } = form
	const save = form.submit(async (body) => {
		const toasts = {
			success: { title: item ? 'Download atualizado' : 'Download criado', description: values.titulo },
			errorTitle: item ? 'Erro ao atualizar download' : 'Erro ao criar download',
			invalidate: ['/api/downloads']
		}
		const done = item
			? await mutate('PUT /api/downloads/:id', { params: { id: item.id }, body }, toasts)
			: await mutate('POST /api/downloads', { body }, toasts)
		if (done) onClose()
	})
	return (
		<Modal
			open
			onClose={onClose}
			title={item ? 'Editar download' : 'Novo download'}
			footer={<ModalActions onCancel={onClose} form="download-form" pending={form.pending} label="Salvar" />}
		>
			<form id="download-form" className="space-y-3" onSubmit={save} noValidate>
				<Field label="Título *" error={errors.titulo}>
					<input className="input w-full" value={values.titulo} maxLength={200} onChange={(e) => set('titulo', e.target.value)} />
				</Field>
				<TextField
					label="Link de Download *"
					error={errors.link}
					type="url"
					value={values.link}
					placeholder="https://"
					onValue={(v) => set('link', v)}
				/>
				<label className="flex items-center gap-2 text-sm">
					<input
						type="checkbox"
						className="toggle toggle-sm toggle-success"
						checked={values.ativo}
						onChange={(e) => set('ativo', e.target.checked)}
					/>{' '}
					Ativo
				</label>
			</form>
		</Modal>
	)
}
