import { useStore } from '@nanostores/react'
import { Copy, ImageUp, KeyRound, Trash2 } from 'lucide-react'
import { useEffect, useState } from 'react'
import { can, formatCnpj, formatDate, formatDateTime, formatMoney, formatPhone } from '../../../../modules/core'
import { CompanyPatch, NoticeBody, NoticeRemoveBody, SYSTEM_CATALOGUE, nonPaymentFlags } from '../../../../modules/companies/model'
import { Modal, ModalActions } from '../../components/Modal'
import { DateInput, Field, FormError } from '../../components/ui'
import { fieldErrors, useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { $companyOptions, COMPANY_KEYS, type Company } from '../../stores/companies'
import { confirmAction } from '../../stores/confirm'
import { $user } from '../../stores/session'
import { toast } from '../../stores/toast'

/** Dates-only dialog (administrador): certificate and licence expiry. */
export function CompanyDatesDialog({ company, onClose }: { company: Company; onClose: () => void }) {
	const form = useZodForm({
		schema: CompanyPatch,
		initial: { licenca: company.validade_licenca ?? '', certificado: company.validade_certificado ?? '' },
		toInput: (v) => ({ validade_licenca: v.licenca || null, validade_certificado: v.certificado || null })
	})
	const save = form.submit(async (body) => {
		const done = await mutate(
			'PATCH /api/companies/:id',
			{ params: { id: company.codigo }, body },
			{
				success: { title: 'Datas atualizadas', description: company.razao },
				errorTitle: 'Erro ao atualizar',
				errorFallback: 'Ocorreu um erro ao atualizar as datas.',
				invalidate: COMPANY_KEYS
			}
		)
		if (done) onClose()
	})
	return (
		<Modal
			open
			onClose={onClose}
			title="Editar datas de validade"
			footer={<ModalActions onCancel={onClose} onConfirm={save} pending={form.pending} label="Salvar datas" />}
		>
			<p className="mb-3 text-sm text-base-content/70">{company.razao}</p>
			<div className="grid gap-3 sm:grid-cols-2">
				<Field label="Validade da licença" error={form.errors.validade_licenca}>
					<DateInput value={form.values.licenca} onChange={(v) => form.set('licenca', v)} />
				</Field>
				<Field label="Validade do certificado" error={form.errors.validade_certificado}>
					<DateInput value={form.values.certificado} onChange={(v) => form.set('certificado', v)} />
				</Field>
			</div>
		</Modal>
	)
}

function Section({ title, children }: { title: string; children: React.ReactNode }) {
	return (
		<section className="rounded-box border border-base-300 p-3">
			<h4 className="mb-2 text-sm font-semibold text-base-content/70">{title}</h4>
			<dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-2">{children}</dl>
		</section>
	)
}
function Item({ label, value }: { label: string; value: React.ReactNode }) {
	return (
		<div className="flex gap-2">
			<dt className="shrink-0 text-base-content/70">{label}:</dt>
			<dd className="min-w-0 break-words">{value || '—'}</dd>
		</div>
	)
}

/** Details dialog (1-core §2.9 item 3), with the licence key the company's systems use. */
export function CompanyDetailsDialog({ company, onClose }: { company: Company; onClose: () => void }) {
	const user = useStore($user)
	// The systems the reminder schedule blocked for non-payment: a payment lifts them (issue 37).
	const unpaid = nonPaymentFlags(company.bloqueio_inadimplencia)
	const [serial, setSerial] = useState<string | null>(company.serial)
	const copy = async () => {
		try {
			await navigator.clipboard.writeText(serial ?? '')
			toast({ title: 'Copiado!', description: 'Chave de licença copiada.', variant: 'success' })
		} catch {
			toast({ title: 'Não foi possível copiar o código', variant: 'destructive' })
		}
	}
	const regenerate = async () => {
		const ok = await confirmAction({
			title: 'Gerar nova chave de licença?',
			message: `A chave atual de ${company.razao} deixará de funcionar imediatamente. Os sistemas da empresa precisarão da nova chave.\nEsta ação não pode ser desfeita.`,
			confirmLabel: 'Gerar nova chave',
			destructive: true
		})
		if (!ok) return
		const result = await mutate(
			'POST /api/companies/:id/regenerar-chave',
			{ params: { id: company.codigo } },
			{ success: { title: 'Nova chave gerada' }, errorTitle: 'Erro ao gerar chave', invalidate: COMPANY_KEYS }
		)
		if (result) setSerial(result.serial)
	}
	return (
		<Modal
			open
			onClose={onClose}
			title={company.razao}
			size="lg"
			footer={
				<button type="button" className="btn" onClick={onClose}>
					Fechar
				</button>
			}
		>
			<div className="space-y-3">
				<Section title="Informações básicas">
					<Item label="CNPJ" value={formatCnpj(company.cnpj)} />
					<Item label="Representante" value={company.representante?.nome} />
					<Item label="Código" value={company.codigo} />
					<Item label="Cadastro" value={formatDate(company.data)} />
				</Section>
				<Section title="Endereço">
					<Item label="Endereço" value={company.endereco} />
					<Item label="Bairro" value={company.bairro} />
					<Item label="Cidade" value={[company.cidade, company.uf].filter(Boolean).join(' / ')} />
					<Item label="CEP" value={company.cep} />
				</Section>
				<Section title="Contato">
					<Item label="Telefone" value={formatPhone(company.fone)} />
					<Item label="E-mail" value={company.email} />
					<Item label="Link" value={company.link} />
				</Section>
				<Section title="Licenças e validade">
					<Item label="Licença" value={formatDate(company.validade_licenca)} />
					<Item label="Certificado" value={formatDate(company.validade_certificado)} />
					<Item label="Valor mensal" value={formatMoney(Math.round(company.valor_mensal * 100))} />
					<Item label="Dia de vencimento" value={company.dia_venc} />
					<Item
						label="Liberação em confiança"
						value={company.liberacao_confianca_expira ? `até ${formatDateTime(company.liberacao_confianca_expira)}` : 'Não'}
					/>
				</Section>
				<Section title="Situação dos sistemas">
					{SYSTEM_CATALOGUE.map((s) => (
						<Item
							key={s.flag}
							label={s.name}
							value={
								company[s.flag] === 'S' ? (
									<span className="text-error">
										{unpaid.includes(s.flag) ? 'Bloqueado por falta de pagamento (libera sozinho ao pagar)' : 'Bloqueado'}
									</span>
								) : (
									<span className="text-success">Ativo</span>
								)
							}
						/>
					))}
				</Section>
				<Section title="Terminais">
					<Item label="Em uso" value={`${company.terminal_count} de ${company.nterminais}`} />
					<Item
						label="Lista"
						value={
							<a className="link" href={`/terminals?search=${encodeURIComponent(company.razao)}`}>
								Ver terminais
							</a>
						}
					/>
				</Section>
				<Section title="Configurações">
					<Item label="API" value={company.ativarapi === 'S' ? 'Ativada' : 'Desativada'} />
					<Item label="Instância Evolution" value={company.evo_instancia} />
					<Item label="Manutenção" value={company.manutencao === 'S' ? 'Sim' : 'Não'} />
					<Item
						label="Exibir aviso"
						value={company.exibir_aviso === 'S' ? `Sim${company.aviso_titulo ? ` — ${company.aviso_titulo}` : ''}` : 'Não'}
					/>
				</Section>
				<Section title="Histórico">
					<Item label="On-line" value={company.on_line === 'S' ? 'Sim' : 'Não'} />
					<Item
						label="Última utilização"
						value={
							company.data_ultima_utilizacao
								? `${formatDate(company.data_ultima_utilizacao)} ${company.hora_ultima_utilizacao ?? ''}`
								: 'Nunca'
						}
					/>
				</Section>
				{company.obs && (
					<section className="rounded-box border border-base-300 p-3">
						<h4 className="mb-2 text-sm font-semibold text-base-content/70">Observações</h4>
						<p className="whitespace-pre-line text-sm">{company.obs}</p>
					</section>
				)}
				<section className="rounded-box border border-base-300 p-3">
					<h4 className="mb-2 flex items-center gap-2 text-sm font-semibold text-base-content/70">
						<KeyRound className="size-4" /> Chave de licença
					</h4>
					<div className="flex flex-wrap items-center gap-2">
						<code className="min-w-0 grow break-all rounded bg-base-200 px-2 py-1 text-sm">{serial}</code>
						<button type="button" className="btn btn-sm" onClick={copy}>
							<Copy className="size-4" /> Copiar
						</button>
						{can(user?.tipo, 'companies.keys') && (
							<button type="button" className="btn btn-sm btn-warning" onClick={regenerate}>
								Gerar nova chave
							</button>
						)}
					</div>
					<p className="mt-2 text-xs text-base-content/70">Use esta chave com o CNPJ na configuração dos sistemas da empresa.</p>
				</section>
			</div>
		</Modal>
	)
}

const MAX_IMAGE = 5 * 1024 * 1024

/** Promotional image of the representative, shown by their clients' systems. */
export function PromoImageDialog({ current, onClose }: { current: string | null; onClose: () => void }) {
	const [preview, setPreview] = useState<string | null>(null)
	const [busy, setBusy] = useState(false)

	function choose(file: File | undefined) {
		if (!file) return
		if (!/^image\/(png|jpeg|gif)$/.test(file.type))
			return toast({
				title: 'Erro ao fazer upload da imagem',
				description: 'Por favor, selecione apenas arquivos de imagem',
				variant: 'destructive'
			})
		if (file.size > MAX_IMAGE)
			return toast({ title: 'Erro ao fazer upload da imagem', description: 'A imagem deve ter no máximo 5MB', variant: 'destructive' })
		const reader = new FileReader()
		reader.onload = () => setPreview(String(reader.result))
		reader.readAsDataURL(file)
	}
	async function upload() {
		if (!preview) return
		setBusy(true)
		const done = await mutate(
			'POST /api/representantes/promo-image',
			{ body: { imageBase64: preview } },
			{
				success: { title: 'Imagem atualizada', description: 'A imagem aparecerá nos sistemas dos seus clientes.' },
				errorTitle: 'Erro ao fazer upload da imagem',
				invalidate: COMPANY_KEYS
			}
		)
		setBusy(false)
		if (done) onClose()
	}
	async function remove() {
		if (
			!(await confirmAction({
				title: 'Remover imagem promocional?',
				message: 'Os sistemas dos seus clientes deixarão de exibi-la.',
				confirmLabel: 'Remover',
				destructive: true
			}))
		)
			return
		const done = await mutate(
			'DELETE /api/representantes/promo-image',
			{},
			{ success: { title: 'Imagem removida' }, errorTitle: 'Erro ao remover imagem', invalidate: COMPANY_KEYS }
		)
		if (done) onClose()
	}
	const shown = preview ?? current
	return (
		<Modal
			open
			onClose={onClose}
			title="Imagem promocional"
			footer={
				<ModalActions onCancel={onClose} onConfirm={upload} pending={busy} disabled={!preview} label="Enviar imagem">
					{current && !preview && (
						<button type="button" className="btn btn-error btn-outline mr-auto" onClick={remove}>
							<Trash2 className="size-4" /> Remover
						</button>
					)}
				</ModalActions>
			}
		>
			<p className="mb-3 text-sm text-base-content/70">JPG, PNG ou GIF de até 5MB. Ela aparece nos sistemas de todas as suas empresas.</p>
			<div className="mb-3 grid min-h-40 place-items-center rounded-box border border-dashed border-base-300 bg-base-200 p-2">
				{shown ? (
					<img src={shown} alt="Imagem promocional" className="max-h-64 rounded" />
				) : (
					<ImageUp className="size-10 text-base-content/40" aria-hidden="true" />
				)}
			</div>
			<input
				type="file"
				accept="image/png,image/jpeg,image/gif"
				className="file-input w-full"
				aria-label="Escolher imagem"
				onChange={(e) => choose(e.target.files?.[0])}
			/>
		</Modal>
	)
}

/** Send notice dialog (representative): title, text with counter, and the companies to show it. */
export function SendNoticeDialog({ onClose }: { onClose: () => void }) {
	const options = useStore($companyOptions)
	const form = useZodForm({
		schema: NoticeBody,
		initial: { titulo: '', texto: '', empresas: [] as number[] },
		toInput: (v) => v
	})
	const [removeError, setRemoveError] = useState<string | null>(null)
	useEffect(() => {
		$companyOptions.revalidate()
	}, [])
	const { values, set, errors } = form
	const selected = values.empresas
	const companies = options.data?.companies ?? []
	const toggle = (codigo: number) =>
		set('empresas', selected.includes(codigo) ? selected.filter((c) => c !== codigo) : [...selected, codigo])

	const send = form.submit(async (body) => {
		const done = await mutate(
			'POST /api/representantes/avisos',
			{ body },
			{
				success: { title: 'Aviso enviado', description: `${body.empresas.length} empresa(s)` },
				errorTitle: 'Erro ao enviar aviso',
				invalidate: COMPANY_KEYS
			}
		)
		if (done) onClose()
	})
	async function remove() {
		const problem = fieldErrors(NoticeRemoveBody, { empresas: selected }).empresas ?? null
		setRemoveError(problem)
		if (problem) return
		const done = await mutate(
			'DELETE /api/representantes/avisos',
			{ body: { empresas: selected } },
			{ success: { title: 'Avisos removidos' }, errorTitle: 'Erro ao remover avisos', invalidate: COMPANY_KEYS }
		)
		if (done) onClose()
	}

	return (
		<Modal
			open
			onClose={onClose}
			title="Enviar aviso"
			size="lg"
			footer={
				<ModalActions onCancel={onClose} onConfirm={send} pending={form.pending} label="Enviar aviso">
					<button type="button" className="btn btn-ghost mr-auto" onClick={remove}>
						Remover avisos das selecionadas
					</button>
				</ModalActions>
			}
		>
			<div className="space-y-3">
				<Field label="Título *" error={errors.titulo}>
					<input className="input w-full" value={values.titulo} maxLength={100} onChange={(e) => set('titulo', e.target.value)} />
				</Field>
				<Field label="Texto do aviso *" hint={`${values.texto.length}/1000`} error={errors.texto}>
					<textarea
						className="textarea w-full"
						rows={4}
						value={values.texto}
						maxLength={1000}
						onChange={(e) => set('texto', e.target.value)}
					/>
				</Field>
				<div>
					<div className="mb-1 flex items-center justify-between text-sm font-medium">
						<span>Empresas ({selected.length} selecionadas)</span>
						<button
							type="button"
							className="btn btn-ghost btn-xs"
							onClick={() => set('empresas', selected.length === companies.length ? [] : companies.map((c) => c.codigo))}
						>
							{selected.length === companies.length && companies.length > 0 ? 'Desmarcar todas' : 'Selecionar todas'}
						</button>
					</div>
					<ul className="max-h-56 space-y-1 overflow-y-auto rounded-box border border-base-300 p-2">
						{options.loading && !options.data && <li className="skeleton h-8" />}
						{companies.map((c) => (
							<li key={c.codigo}>
								<label className="flex cursor-pointer items-center gap-2 rounded px-2 py-1 text-sm hover:bg-base-200">
									<input
										type="checkbox"
										className="checkbox checkbox-sm"
										checked={selected.includes(c.codigo)}
										onChange={() => toggle(c.codigo)}
									/>
									<span className="grow">{c.razao}</span>
									{c.exibir_aviso === 'S' && <span className="badge badge-info badge-sm">com aviso</span>}
								</label>
							</li>
						))}
					</ul>
					<FormError message={errors.empresas ?? removeError} />
				</div>
			</div>
		</Modal>
	)
}
