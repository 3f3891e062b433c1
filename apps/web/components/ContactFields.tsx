import { maskCep, maskCnpj, maskPhone, UFS } from '../../../modules/core'
import { SelectField, TextField } from './ui'

const UF_OPTIONS = UFS.map((uf) => ({ value: uf, label: uf }))

type AddressKey = 'endereco' | 'bairro' | 'cidade' | 'uf' | 'cep'

/**
 * Endereço, Bairro, Cidade, UF and CEP (masked) of a form laid out on `sm:grid-cols-2`;
 * `onChange` receives the key of the field that changed (the form's own `set`).
 */
export function AddressFields({
	value,
	onChange,
	errors = {}
}: {
	value: Record<AddressKey, string>
	onChange: (key: AddressKey, value: string) => void
	/** The form's messages by field (useZodForm). */
	errors?: Partial<Record<string, string>>
}) {
	return (
		<>
			<TextField
				label="Endereço"
				error={errors.endereco}
				className="sm:col-span-2"
				value={value.endereco}
				maxLength={200}
				onValue={(v) => onChange('endereco', v)}
			/>
			<TextField label="Bairro" error={errors.bairro} value={value.bairro} maxLength={100} onValue={(v) => onChange('bairro', v)} />
			<TextField label="Cidade" error={errors.cidade} value={value.cidade} maxLength={100} onValue={(v) => onChange('cidade', v)} />
			<SelectField label="UF" error={errors.uf} value={value.uf} onValue={(v) => onChange('uf', v)} placeholder="—" options={UF_OPTIONS} />
			<TextField
				label="CEP"
				error={errors.cep}
				value={value.cep}
				maxLength={9}
				placeholder="00000-000"
				inputMode="numeric"
				onValue={(v) => onChange('cep', maskCep(v))}
			/>
		</>
	)
}

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
export function EvolutionInstanceField(bound: Bound) {
	return <TextField {...bound} label="Instância Evolution" maxLength={100} />
}
