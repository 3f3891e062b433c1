import { Copy } from 'lucide-react'
import type { ReactNode } from 'react'
import { Modal } from '../../components/Modal'
import { PixQr } from '../../components/PixQr'
import { toast } from '../../stores/toast'

/** A parcel's PIX: its QR and its copy-and-paste code, to pay from the screen or pass on to the client. */
export default function PixDialog({ code, summary, onClose }: { code: string; summary: ReactNode; onClose: () => void }) {
	async function copy() {
		try {
			await navigator.clipboard.writeText(code)
			toast({ title: 'Copiado!', description: 'Cole o código no app do banco, em PIX Copia e Cola.', variant: 'success' })
		} catch {
			toast({ title: 'Erro', description: 'Não foi possível copiar o código', variant: 'destructive' })
		}
	}
	return (
		<Modal
			open
			onClose={onClose}
			title="PIX da parcela"
			footer={
				<button type="button" className="btn" onClick={onClose}>
					Fechar
				</button>
			}
		>
			<div className="space-y-4">
				<div className="text-sm">{summary}</div>
				<div className="flex justify-center">
					<PixQr code={code} />
				</div>
				<label className="block">
					<span className="mb-1 block text-sm font-medium">PIX Copia e Cola</span>
					<textarea className="textarea w-full font-mono text-xs" rows={4} readOnly value={code} onFocus={(e) => e.target.select()} />
				</label>
				<button type="button" className="btn btn-primary w-full" onClick={copy}>
					<Copy className="size-4" aria-hidden="true" /> Copiar código PIX
				</button>
			</div>
		</Modal>
	)
}
