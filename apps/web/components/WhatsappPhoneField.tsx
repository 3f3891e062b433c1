import { WHATSAPP_PHONE_HINT } from '../../../modules/core'
import { Field } from './ui'

/**
 * The phone of every WhatsApp form (carnê, parcel, test send, bot test, attendant, rehearsal): typed as people write
 * it, under the one hint whose words are what the server's whatsappPhoneField accepts; `error` is that check's message.
 */
export function WhatsappPhoneField({
	label = 'Telefone (WhatsApp)',
	value,
	onChange,
	error
}: {
	label?: string
	value: string
	onChange: (value: string) => void
	error?: string
}) {
	return (
		<Field label={label} error={error} hint={WHATSAPP_PHONE_HINT}>
			<input
				className="input w-full"
				inputMode="tel"
				autoComplete="tel"
				placeholder="(85) 98103-9595"
				value={value}
				onChange={(e) => onChange(e.target.value)}
			/>
		</Field>
	)
}
