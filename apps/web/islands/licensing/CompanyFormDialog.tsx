import { useEffect, useState } from 'react'
import { maskCnpj, normalizeCnpj, maskPhone } from '../../../../modules/core'
import { type CompanyInput, type FlagColumn, SYSTEM_CATALOGUE } from '../../../../modules/companies/model'
import { AddressFields, EmailField, PhoneField } from '../../components/ContactFields'
import { DateInput, Field, FormError } from '../../components/ui'
import { Modal, ModalActions } from '../../components/Modal'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { useStore } from '@nanostores/react'
import { $user } from '../../stores/session'
import { COMPANY_KEYS, type Company } from '../../stores/companies'

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
		endereco: c?.endereco ?? '',
		bairro: c?.bairro ?? '',
		cidade: c?.cidade ?? '',
		uf: c?.uf ?? '',
		cep: c?.cep ?? '',
		fone: c?.fone ? maskPhone(c.fone) : '',
		email: c?.email ?? '',
		link: c?.link ?? '',
		nterminais: String(c?.nterminais ?? defaultTerminals),
		valor_mensal: c ? String(c.valor_mensal) : '0',
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

/** Nova Empresa / Editar Empresa (1-core §2.9 item 1, §5). */
export function CompanyFormDialog({ open, company, onClose }: { open: boolean; company: Company | null; onClose: () => void }) {
	const user = useStore($user)
	const reps = useStore($representativeOptions)
	const isRep = user?.tipo === 'representante'
	const datesLocked = user?.tipo !== 'administrador'
	const datesHint = isRep ? 'Somente visualização para representantes' : datesLocked ? 'Somente o administrador altera as datas' : undefined
	const [form, setForm] = useState<Form>(() => toForm(company, 1))
	const [error, setError] = useState<string | null>(null)
	const [saving, setSaving] = useState(false)

	useEffect(() => {
		if (open) {
			setForm(toForm(company, 1))
			setError(null)
		}
	}, [open, company])

	const set = <K extends keyof Form>(key: K, value: Form[K]) => setForm((f) => ({ ...f, [key]: value }))

	async function save(e: React.FormEvent) {
		e.preventDefault()
		if (!form.razao.trim()) return setError('Razão social é obrigatória.')
		if (!form.cnpj.trim()) return setError('CNPJ é obrigatório.')
		if (!isRep && !form.cnpj_representante) return setError('Selecione o representante.')
		setError(null)
		setSaving(true)
		const body: CompanyInput = {
			razao: form.razao,
			cnpj: normalizeCnpj(form.cnpj),
			...(isRep ? {} : { cnpj_representante: form.cnpj_representante }),
			endereco: form.endereco,
			bairro: form.bairro,
			cidade: form.cidade,
			uf: form.uf,
			cep: form.cep,
			fone: form.fone,
			email: form.email,
			link: form.link,
			nterminais: Math.max(1, Number.parseInt(form.nterminais, 10) || 1),
			valor_mensal: Number(form.valor_mensal.replace(',', '.')) || 0,
			dia_venc: form.dia_venc ? Number(form.dia_venc) : null,
			validade_certificado: form.validade_certificado || null,
			validade_licenca: form.validade_licenca || null,
			ativarapi: form.ativarapi ? 'S' : 'N',
			evo_instancia: form.evo_instancia,
			obs: form.obs,
			exibir_aviso: form.exibir_aviso ? 'S' : 'N',
			// Checked means the system is in use: its block flag is N.
			...(Object.fromEntries(SYSTEM_CATALOGUE.map((s) => [s.flag, form.ativos[s.flag] ? 'N' : 'S'])) as Record<FlagColumn, 'S' | 'N'>),
			...(company ? { manutencao: company.manutencao } : {})
		}
		const toasts = {
			success: { title: company ? 'Empresa atualizada' : 'Empresa criada', description: form.razao },
			errorTitle: company ? 'Erro ao atualizar empresa' : 'Erro ao criar empresa',
			invalidate: COMPANY_KEYS
		}
		const done = company
			? await mutate('PUT /api/companies/:id', { params: { id: company.codigo }, body }, toasts)
			: await mutate('POST /api/companies', { body }, toasts)
		setSaving(false)
		if (done) onClose()
	}

	const repName = isRep ? user?.nome : undefined
	return (
		<Modal
			open={open}
			onClose={onClose}
			title={company ? 'Editar Empresa' : 'Nova Empresa'}
			size="lg"
			footer={
				<ModalActions onCancel={onClose} form="company-form" pending={saving} label={company ? 'Salvar alterações' : 'Criar empresa'} />
			}
		>
			<form id="company-form" onSubmit={save} className="grid gap-3 sm:grid-cols-2" noValidate>
				<Field label="Razão social *" className="sm:col-span-2">
					<input className="input w-full" value={form.razao} onChange={(e) => set('razao', e.target.value)} maxLength={200} required />
				</Field>
				<Field label="CNPJ *">
					<input
						className="input w-full"
						value={form.cnpj}
						onChange={(e) => set('cnpj', maskCnpj(e.target.value))}
						maxLength={18}
						placeholder="00.000.000/0000-00"
						required
					/>
				</Field>
				<Field label="Representante *" hint={isRep ? 'Representantes não podem alterar este campo' : undefined}>
					{isRep ? (
						<input className="input w-full" value={repName ?? ''} readOnly disabled />
					) : (
						<select
							className="select w-full"
							value={form.cnpj_representante}
							onChange={(e) => set('cnpj_representante', e.target.value)}
							required
						>
							<option value="">Selecione…</option>
							{(reps.data ?? []).map((r) => (
								<option key={r.cnpj} value={r.cnpj}>
									{r.nome}
								</option>
							))}
						</select>
					)}
				</Field>
				<AddressFields value={form} onChange={set} />
				<PhoneField value={form.fone} onChange={(v) => set('fone', v)} />
				<EmailField value={form.email} onChange={(v) => set('email', v)} />
				<Field label="Link" className="sm:col-span-2">
					<input
						className="input w-full"
						type="url"
						value={form.link}
						onChange={(e) => set('link', e.target.value)}
						placeholder="https://"
					/>
				</Field>
				<Field label="Terminais permitidos">
					<input
						className="input w-full"
						type="number"
						min={1}
						value={form.nterminais}
						onChange={(e) => set('nterminais', e.target.value)}
					/>
				</Field>
				<Field label="Valor mensal (R$)">
					<input
						className="input w-full"
						type="number"
						min={0}
						step={0.01}
						value={form.valor_mensal}
						onChange={(e) => set('valor_mensal', e.target.value)}
					/>
				</Field>
				<Field label="Dia de vencimento">
					<input
						className="input w-full"
						type="number"
						min={1}
						max={31}
						value={form.dia_venc}
						onChange={(e) => set('dia_venc', e.target.value)}
					/>
				</Field>
				<Field label="Instância Evolution">
					<input
						className="input w-full"
						value={form.evo_instancia}
						onChange={(e) => set('evo_instancia', e.target.value)}
						maxLength={100}
					/>
				</Field>
				<Field label="Validade do certificado" hint={datesHint}>
					<DateInput value={form.validade_certificado} onChange={(v) => set('validade_certificado', v)} disabled={datesLocked} />
				</Field>
				<Field label="Validade da licença" hint={datesHint}>
					<DateInput value={form.validade_licenca} onChange={(v) => set('validade_licenca', v)} disabled={datesLocked} />
				</Field>
				<fieldset className="sm:col-span-2">
					<legend className="mb-1 text-sm font-medium">Sistemas ativos</legend>
					<div className="flex flex-wrap gap-x-4 gap-y-2">
						{SYSTEM_CATALOGUE.map((s) => (
							<label key={s.flag} className="flex items-center gap-2 text-sm">
								<input
									type="checkbox"
									className="checkbox checkbox-sm"
									checked={form.ativos[s.flag]}
									onChange={(e) => set('ativos', { ...form.ativos, [s.flag]: e.target.checked })}
								/>
								{s.name}
							</label>
						))}
					</div>
				</fieldset>
				<label className="flex items-center gap-2 text-sm">
					<input
						type="checkbox"
						className="toggle toggle-sm"
						checked={form.ativarapi}
						onChange={(e) => set('ativarapi', e.target.checked)}
					/>
					Ativar API
				</label>
				<label className="flex items-center gap-2 text-sm">
					<input
						type="checkbox"
						className="toggle toggle-sm"
						checked={form.exibir_aviso}
						onChange={(e) => set('exibir_aviso', e.target.checked)}
					/>
					Exibir aviso no sistema
				</label>
				<Field label="Observações" className="sm:col-span-2">
					<textarea className="textarea w-full" rows={3} value={form.obs} onChange={(e) => set('obs', e.target.value)} maxLength={2000} />
				</Field>
				<FormError message={error} />
			</form>
		</Modal>
	)
}
