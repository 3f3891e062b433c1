import { maskCep, maskPhone, UFS } from '../../../modules/core'
import { Field, TextField } from './ui'

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
			<Field label="Endereço" error={errors.endereco} className="sm:col-span-2">
				<input className="input w-full" value={value.endereco} maxLength={200} onChange={(e) => onChange('endereco', e.target.value)} />
			</Field>
			<Field label="Bairro" error={errors.bairro}>
				<input className="input w-full" value={value.bairro} maxLength={100} onChange={(e) => onChange('bairro', e.target.value)} />
			</Field>
			<Field label="Cidade" error={errors.cidade}>
				<input className="input w-full" value={value.cidade} maxLength={100} onChange={(e) => onChange('cidade', e.target.value)} />
			</Field>
			<Field label="UF" error={errors.uf}>
				<select className="select w-full" value={value.uf} onChange={(e) => onChange('uf', e.target.value)}>
					<option value="">—</option>
					{UFS.map((uf) => (
						<option key={uf}>{uf}</option>
					))}
				</select>
			</Field>
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

/** A phone field masked while typing: (00) 0000-0000 or (00) 00000-0000. */
export function PhoneField({
	label = 'Telefone',
	value,
	onChange,
	placeholder = '(00) 00000-0000',
	error
}: {
	label?: string
	value: string
	onChange: (value: string) => void
	placeholder?: string
	error?: string
}) {
	return (
		<TextField label={label} error={error} type="tel" value={value} placeholder={placeholder} onValue={(v) => onChange(maskPhone(v))} />
	)
}

export function EmailField({ value, onChange, error }: { value: string; onChange: (value: string) => void; error?: string }) {
	return (
		<Field label="E-mail" error={error}>
			<input type="email" className="input w-full" value={value} maxLength={200} onChange={(e) => onChange(e.target.value)} />
		</Field>
	)
}
