import { type Download, DownloadBody } from '../../../../modules/downloads/model'
import { FormDialog } from '../../components/Modal'
import { TextField, ToggleField } from '../../components/ui'
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
	return (
		<FormDialog
			title={item ? 'Editar download' : 'Novo download'}
			form={form}
			send={(body) => {
				const toasts = {
					success: { title: item ? 'Download atualizado' : 'Download criado', description: values.titulo },
					errorTitle: item ? 'Erro ao atualizar download' : 'Erro ao criar download',
					invalidate: ['/api/downloads']
				}
				return item
					? mutate('PUT /api/downloads/:id', { params: { id: item.id }, body }, toasts)
					: mutate('POST /api/downloads', { body }, toasts)
			}}
			onClose={onClose}
			submitLabel="Salvar"
			className="space-y-3"
		>
			<TextField label="Título *" error={errors.titulo} value={values.titulo} maxLength={200} onValue={(v) => set('titulo', v)} />
			<TextField
				label="Link de Download *"
				error={errors.link}
				type="url"
				value={values.link}
				placeholder="https://"
				onValue={(v) => set('link', v)}
			/>
			<ToggleField
				label="Ativo"
				className="flex items-center gap-2 text-sm"
				toggleClassName="toggle-sm toggle-success"
				checked={values.ativo}
				onChecked={(v) => set('ativo', v)}
			/>
		</FormDialog>
	)
}
