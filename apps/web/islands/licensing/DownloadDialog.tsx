import { type Download, DownloadBody } from '../../../../modules/downloads/model'
import { UrlField } from '../../components/ContactFields'
import { FormDialog } from '../../components/Modal'
import { TextField, ToggleField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { saveRecord } from '../../lib/mutate'

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
	const { values, text, toggle } = form
	return (
		<FormDialog
			title={item ? 'Editar download' : 'Novo download'}
			form={form}
			send={(body) =>
				saveRecord({ create: 'POST /api/downloads', update: 'PUT /api/downloads/:id' }, item && { id: item.id }, body, {
					title: 'Download',
					noun: 'download',
					description: values.titulo,
					invalidate: ['GET /api/downloads']
				})
			}
			onClose={onClose}
			submitLabel="Salvar"
			className="space-y-3"
		>
			<TextField label="Título *" maxLength={200} {...text('titulo')} />
			<UrlField label="Link de Download *" {...text('link')} />
			<ToggleField
				label="Ativo"
				className="flex items-center gap-2 text-sm"
				toggleClassName="toggle-sm toggle-success"
				{...toggle('ativo')}
			/>
		</FormDialog>
	)
}
