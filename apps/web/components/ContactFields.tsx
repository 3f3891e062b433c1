import { maskCnpj, maskPhone } from '../../../modules/core'
import { TextField } from './ui'

/** The props a form gives a text field (`form.text(key)`). */
interface Bound {
	value: string
	onValue: (value: string) => void
	error?: string | null
}

/** A phone field masked while typing: (00) 0000-0000 or (00) 00000-0000. */
export function PhoneField({
	label = 'Telefone',
	placeholder = '(00) 00000-0000',
	onValue,
	...bound
}: Bound & { label?: string; placeholder?: string }) {
	return <TextField {...bound} label={label} type="tel" placeholder={placeholder} onValue={(v) => onValue(maskPhone(v))} />
}

export function EmailField({ className, autoComplete, ...bound }: Bound & { className?: string; autoComplete?: string }) {
	return <TextField {...bound} label="E-mail" className={className} type="email" maxLength={200} autoComplete={autoComplete} />
}

/** CNPJ *, masked while typing. */
export function CnpjField({ onValue, ...bound }: Bound & { autoComplete?: string }) {
	return <TextField {...bound} label="CNPJ *" maxLength={18} placeholder="00.000.000/0000-00" onValue={(v) => onValue(maskCnpj(v))} />
}

/** A web address (payment link, company site, installer) typed whole, http(s). */
export function UrlField({ label, ...bound }: Bound & { label: string; hint?: string; className?: string; maxLength?: number }) {
	return <TextField {...bound} label={label} type="url" placeholder="https://" />
}

/** The Evolution (WhatsApp) instance of a representative or company. */
export function EvolutionInstanceField(bound: Bound & { disabled?: boolean; hint?: string }) {
	return <TextField {...bound} label="Instância Evolution" maxLength={100} />
}
