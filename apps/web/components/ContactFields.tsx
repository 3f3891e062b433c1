import { maskCep, maskPhone, UFS } from '../../../modules/core'
import { Field } from './ui'

type AddressKey = 'endereco' | 'bairro' | 'cidade' | 'uf' | 'cep'

/**
 * Endereço, Bairro, Cidade, UF and CEP (masked) of a form laid out on `sm:grid-cols-2`;
 * `onChange` receives the key of the field that changed (the form's own `set`).
 */
export function AddressFields({
	value,
	onChange
}: {
	value: Record<AddressKey, string>
	onChange: (key: AddressKey, value: string) => void
}) {
	return (
		<>
			<Field label="Endereço" className="sm:col-span-2">
				<input className="input w-full" value={value.endereco} maxLength={200} onChange={(e) => onChange('endereco', e.target.value)} />
			</Field>
			<Field label="Bairro">
				<input className="input w-full" value={value.bairro} maxLength={100} onChange={(e) => onChange('bairro', e.target.value)} />
			</Field>
			<Field label="Cidade">
				<input className="input w-full" value={value.cidade} maxLength={100} onChange={(e) => onChange('cidade', e.target.value)} />
			</Field>
			<Field label="UF">
				<select className="select w-full" value={value.uf} onChange={(e) => onChange('uf', e.target.value)}>
					<option value="">—</option>
					{UFS.map((uf) => (
						<option key={uf}>{uf}</option>
					))}
				</select>
			</Field>
			<Field label="CEP">
				<input
					className="input w-full"
					value={value.cep}
					maxLength={9}
					placeholder="00000-000"
					inputMode="numeric"
					onChange={(e) => onChange('cep', maskCep(e.target.value))}
				/>
			</Field>
		</>
	)
}

/** A phone field masked while typing: (00) 0000-0000 or (00) 00000-0000. */
export function PhoneField({
	label = 'Telefone',
	value,
	onChange,
	placeholder = '(00) 00000-0000'
}: {
	label?: string
	value: string
	onChange: (value: string) => void
	placeholder?: string
}) {
	return (
		<Field label={label}>
			<input
				type="tel"
				className="input w-full"
				value={value}
				placeholder={placeholder}
				onChange={(e) => onChange(maskPhone(e.target.value))}
			/>
		</Field>
	)
}

export function EmailField({ value, onChange }: { value: string; onChange: (value: string) => void }) {
	return (
		<Field label="E-mail">
			<input type="email" className="input w-full" value={value} maxLength={200} onChange={(e) => onChange(e.target.value)} />
		</Field>
	)
}
