import { maskCep, UFS } from '../../../modules/core'
import { SelectField, TextField } from './ui'

const UF_OPTIONS = UFS.map((uf) => ({ value: uf, label: uf }))

type AddressKey = 'endereco' | 'bairro' | 'cidade' | 'uf' | 'cep'
const ADDRESS_KEYS: AddressKey[] = ['endereco', 'bairro', 'cidade', 'uf', 'cep']

/** The address fields' starting text: the record's (company, representative), empty for a new one. */
export function addressOf(record: Partial<Record<AddressKey, string | null>> | null): Record<AddressKey, string> {
	return Object.fromEntries(ADDRESS_KEYS.map((key) => [key, record?.[key] ?? ''])) as Record<AddressKey, string>
}

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
