import { useStore } from '@nanostores/react'
import { useEffect, useRef } from 'react'
import { can, maskCnpj, maskPhone, moneyText, parseMoneyText } from '../../../../modules/core'
import { CompanyBody, type CompanyInput, type FlagColumn, SYSTEM_CATALOGUE } from '../../../../modules/companies/model'
import { numericSetting } from '../../../../modules/settings/model'
import { AddressFields, addressOf } from '../../components/AddressFields'
import { CnpjField, EmailField, EvolutionInstanceField, PhoneField, UrlField } from '../../components/ContactFields'
import { FormDialog } from '../../components/Modal'
import { DateInput, Field, MoneyField, SelectField, TextareaField, TextField, ToggleField } from '../../components/ui'
import { type FieldErrors, useZodForm } from '../../lib/form'
import { saveRecord } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $configuracoes } from '../../lib/settings'
import { COMPANY_KEYS, type Company } from '../../stores/companies'
import { $user } from '../../stores/session'

const $representativeOptions = routeStore('GET /api/representatives')

type Form = {
	razao: string
	cnpj: string
	cnpj_representante: string
	endereco: string
	bairro: string
	cidade: string
	uf: string
	cep: string
	fone: string
	email: string
	link: string
	nterminais: string
	valor_mensal: string
	dia_venc: string
	validade_certificado: string
	validade_licenca: string
	ativarapi: boolean
	evo_instancia: string
	obs: string
	exibir_aviso: boolean
	/** Systems in use (checked = active = flag N). */
	ativos: Record<string, boolean>
}

function toForm(c: Company | null, defaultTerminals: number): Form {
	return {
		razao: c?.razao ?? '',
		cnpj: c ? maskCnpj(c.cnpj) : '',
		cnpj_representante: c?.cnpj_representante ?? '',
		...addressOf(c),
		fone: c?.fone ? maskPhone(c.fone) : '',
		email: c?.email ?? '',
		link: c?.link ?? '',
		nterminais: String(c?.nterminais ?? defaultTerminals),
		valor_mensal: moneyText(c?.valor_mensal ?? 0),
		dia_venc: c?.dia_venc ? String(c.dia_venc) : '',
		validade_certificado: c?.validade_certificado ?? '',
		validade_licenca: c?.validade_licenca ?? '',
		ativarapi: c?.ativarapi === 'S',
		evo_instancia: c?.evo_instancia ?? '',
		obs: c?.obs ?? '',
		exibir_aviso: c?.exibir_aviso === 'S',
		ativos: Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.flag, c ? c[s.flag] === 'N' : true]))
	}
}

const number = (text: string) => (text.trim() === '' ? undefined : Number(text))

/** Nova Empresa / Editar Empresa (1-core §2.9 item 1, §5), checked field by field with the server's CompanyBody. */
export default function CompanyFormDialog({ company, onClose }: { company: Company | null; onClose: () => void }) {
	const user = useStore($user)
	const reps = useStore($representativeOptions)
	const config = useStore($configuracoes)
	const assigns = can(user?.tipo, 'companies.assign')
	const datesLocked = !can(user?.tipo, 'companies.dates')
	const datesHint = !assigns
		? 'Somente visualização para representantes'
		: datesLocked
			? 'Somente o administrador altera as datas'
			: undefined
	// Nova Empresa starts with the settings' default terminals (issue 14, point 6).
	const defaultTerminals = numericSetting(config.data, 'app.terminais_padrao')
	const form = useZodForm({
		schema: CompanyBody,
		initial: toForm(company, defaultTerminals),
		toInput: (v): CompanyInput => ({
			razao: v.razao,
			cnpj: v.cnpj,
			...(assigns ? { cnpj_representante: v.cnpj_representante || undefined } : {}),
			endereco: v.endereco,
			bairro: v.bairro,
			cidade: v.cidade,
			uf: v.uf,
			cep: v.cep,
			fone: v.fone,
			email: v.email,
			link: v.link,
			nterminais: number(v.nterminais) as number,
			valor_mensal: parseMoneyText(v.valor_mensal) ?? 0,
			dia_venc: number(v.dia_venc) ?? null,
			validade_certificado: v.validade_certificado || null,
			validade_licenca: v.validade_licenca || null,
			ativarapi: v.ativarapi ? 'S' : 'N',
			evo_instancia: v.evo_instancia,
			obs: v.obs,
			exibir_aviso: v.exibir_aviso ? 'S' : 'N',
			// Checked means the system is in use: its block flag is N.
			...(Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.flag, v.ativos[s.flag] ? 'N' : 'S'])) as Record<FlagColumn, 'S' | 'N'>),
			...(company ? { manutencao: company.manutencao } : {})
		}),
		check: (v): FieldErrors => (assigns && !v.cnpj_representante ? { cnpj_representante: 'Selecione o representante da empresa.' } : {})
	})
	const { values, set, errors, text, toggle } = form
	const terminalsTouched = useRef(false)
	useEffect(() => {
		if (!company && !terminalsTouched.current) set('nterminais', String(defaultTerminals))
	}, [defaultTerminals])

	return (
		<FormDialog
			title={company ? 'Editar Empresa' : 'Nova Empresa'}
			size="lg"
			form={form}
			send={(body) =>
				saveRecord({ create: 'POST /api/companies', update: 'PUT /api/companies/:id' }, company && { id: company.codigo }, body, {
					title: 'Empresa',
					noun: 'empresa',
					feminine: true,
					description: values.razao,
					invalidate: COMPANY_KEYS,
					// A CNPJ another company has: said beside the field, where it is fixed.
					fieldErrors: { codes: { DUPLICATE_CNPJ: 'cnpj' }, show: form.setServerError }
				})
			}
			onClose={onClose}
			submitLabel={company ? 'Salvar alterações' : 'Criar empresa'}
			className="grid gap-3 sm:grid-cols-2"
		>
			<TextField label="Razão social *" className="sm:col-span-2" maxLength={200} {...text('razao')} />
			<CnpjField {...text('cnpj')} />
			{assigns ? (
				<SelectField
					label="Representante *"
					placeholder="Selecione…"
					options={(reps.data ?? []).map((r) => ({ value: r.cnpj, label: r.nome }))}
					{...text('cnpj_representante')}
				/>
			) : (
				<TextField
					label="Representante *"
					hint="Representantes não podem alterar este campo"
					value={user?.nome ?? ''}
					onValue={() => {}}
					readOnly
					disabled
				/>
			)}
			<AddressFields value={values} onChange={set} errors={errors} />
			<PhoneField {...text('fone')} />
			<EmailField {...text('email')} />
			<UrlField label="Link" className="sm:col-span-2" {...text('link')} />
			<TextField
				label="Terminais permitidos"
				error={errors.nterminais}
				type="number"
				min={1}
				value={values.nterminais}
				onValue={(v) => {
					terminalsTouched.current = true
					set('nterminais', v)
				}}
			/>
			<MoneyField label="Valor mensal (R$)" {...text('valor_mensal')} />
			<TextField label="Dia de vencimento" type="number" min={1} max={31} {...text('dia_venc')} />
			<EvolutionInstanceField {...text('evo_instancia')} />
			<Field label="Validade do certificado" hint={datesHint} error={errors.validade_certificado}>
				<DateInput value={values.validade_certificado} onChange={(v) => set('validade_certificado', v)} disabled={datesLocked} />
			</Field>
			<Field label="Validade da licença" hint={datesHint} error={errors.validade_licenca}>
				<DateInput value={values.validade_licenca} onChange={(v) => set('validade_licenca', v)} disabled={datesLocked} />
			</Field>
			<fieldset className="sm:col-span-2">
				<legend className="mb-1 text-sm font-medium">Sistemas ativos</legend>
				<div className="flex flex-wrap gap-x-4 gap-y-2">
					{SYSTEM_CATALOGUE.map((s) => (
						<label key={s.flag} className="flex items-center gap-2 text-sm">
							<input
								type="checkbox"
								className="checkbox checkbox-sm"
								checked={values.ativos[s.flag]}
								onChange={(e) => set('ativos', { ...values.ativos, [s.flag]: e.target.checked })}
							/>
							{s.name}
						</label>
					))}
				</div>
			</fieldset>
			<ToggleField label="Ativar API" className="flex items-center gap-2 text-sm" toggleClassName="toggle-sm" {...toggle('ativarapi')} />
			<ToggleField
				label="Exibir aviso no sistema"
				className="flex items-center gap-2 text-sm"
				toggleClassName="toggle-sm"
				{...toggle('exibir_aviso')}
			/>
			<TextareaField label="Observações" className="sm:col-span-2" rows={3} maxLength={2000} {...text('obs')} />
		</FormDialog>
	)
}
