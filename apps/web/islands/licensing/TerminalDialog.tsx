import { useStore } from '@nanostores/react'
import { maskMac } from '../../../../modules/core'
import { type Terminal, TerminalBody } from '../../../../modules/terminals/model'
import { FormDialog } from '../../components/Modal'
import { SelectField, TextField } from '../../components/ui'
import { useZodForm } from '../../lib/form'
import { saveRecord } from '../../lib/mutate'
import { $companyOptions, COMPANY_KEYS } from '../../stores/companies'

/** Novo terminal / Editar terminal (2-administration §2.2, §5.2): company, computer name and MAC, checked beside each. */
export default function TerminalDialog({ terminal, onClose }: { terminal: Terminal | null; onClose: () => void }) {
	const companies = useStore($companyOptions)
	const form = useZodForm({
		schema: TerminalBody,
		initial: {
			empresa: terminal ? String(terminal.fk_empresa) : '',
			nome: terminal?.nome_computador ?? '',
			mac: terminal ? maskMac(terminal.mac) : ''
		},
		toInput: (v) => ({
			fk_empresa: v.empresa === '' ? (undefined as unknown as number) : Number(v.empresa),
			nome_computador: v.nome,
			mac: v.mac === '' ? (undefined as unknown as string) : v.mac
		})
	})
	const { values, set, text } = form
	return (
		<FormDialog
			title={terminal ? 'Editar terminal' : 'Novo terminal'}
			form={form}
			send={(body) =>
				saveRecord({ create: 'POST /api/terminals', update: 'PUT /api/terminals/:codigo' }, terminal && { codigo: terminal.codigo }, body, {
					title: 'Terminal',
					noun: 'terminal',
					description: values.nome || values.mac,
					invalidate: COMPANY_KEYS
				})
			}
			onClose={onClose}
			submitLabel="Salvar"
			className="space-y-3"
		>
			<SelectField
				label="Empresa *"
				placeholder="Selecione…"
				options={(companies.data?.companies ?? []).map((c) => ({
					value: c.codigo,
					label: `${c.razao} (${c.terminal_count}/${c.nterminais})`
				}))}
				{...text('empresa', 'fk_empresa')}
			/>
			<TextField label="Nome do Computador" maxLength={100} placeholder="CAIXA-01" {...text('nome', 'nome_computador')} />
			<TextField
				label="Endereço MAC *"
				inputClassName="font-mono"
				maxLength={17}
				placeholder="00:1A:2B:3C:4D:5E"
				{...text('mac')}
				onValue={(v) => set('mac', maskMac(v))}
			/>
		</FormDialog>
	)
}
