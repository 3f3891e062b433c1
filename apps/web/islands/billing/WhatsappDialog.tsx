import { Send } from 'lucide-react'
import { useState } from 'react'
import { whatsappPhoneProblem } from '../../../../modules/core'
import { Modal, ModalActions } from '../../components/Modal'
import { WhatsappPhoneField } from '../../components/WhatsappPhoneField'

/**
 * The phone dialog of a WhatsApp send (mounted while open, see LazyDialog): a summary, the phone (the one WhatsApp
 * phone field, pre-filled with the company's registered phone when it has one), checked before sending with the API's
 * own rule, send disabled while blank; it closes when `onSend` answers (mutate's result), and stays open on a failure.
 */
export default function WhatsappDialog({
	title,
	summary,
	initialPhone,
	onClose,
	onSend
}: {
	title: string
	summary: React.ReactNode
	initialPhone?: string | null
	onClose: () => void
	onSend: (phone: string) => Promise<unknown>
}) {
	const [phone, setPhone] = useState(initialPhone ?? '')
	const [tried, setTried] = useState(false)
	const [pending, setPending] = useState(false)
	const error = tried ? (whatsappPhoneProblem(phone) ?? undefined) : undefined
	async function send(e: React.FormEvent) {
		e.preventDefault()
		setTried(true)
		if (whatsappPhoneProblem(phone)) return
		setPending(true)
		// As typed: the server reads the digits and refuses a letter instead of dropping it.
		const sent = await onSend(phone)
		setPending(false)
		if (sent) onClose()
	}
	return (
		<Modal
			open
			onClose={onClose}
			title={title}
			footer={
				<ModalActions
					onCancel={onClose}
					form="whatsapp-form"
					pending={pending}
					disabled={phone.trim() === ''}
					label="Enviar"
					icon={<Send className="size-4" aria-hidden="true" />}
				/>
			}
		>
			<form id="whatsapp-form" className="space-y-4" onSubmit={send} noValidate>
				<div className="rounded-box bg-base-200 p-3 text-sm">{summary}</div>
				<WhatsappPhoneField value={phone} onChange={setPhone} error={error} />
			</form>
		</Modal>
	)
}
