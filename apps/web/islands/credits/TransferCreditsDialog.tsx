import { useStore } from '@nanostores/react'
import { ArrowRightLeft, CalendarClock, Coins } from 'lucide-react'
import { atom, computed } from 'nanostores'
import { type FormEvent, useEffect, useId, useMemo, useState } from 'react'
import type { TransferResult } from '../../../../modules/credits/model'
import { formatDate, isoDateInSaoPaulo } from '../../../../modules/core'
import { Modal, ModalActions } from '../../components/Modal'
import { Field, FormError } from '../../components/ui'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { numericSetting } from '../../../../modules/settings/model'
import { $configuracoes } from '../../lib/settings'
import { $user } from '../../stores/session'
import { $companyOptions, type Company } from '../../stores/companies'
import { SYSTEM_CATALOGUE, type SystemName, extendedLicence } from '../../../../modules/companies/model'

export type TransferCompany = Pick<Company, 'codigo' | 'razao' | 'validade_licenca' | 'cnpj_representante'>

export interface TransferCreditsDialogProps {
	open: boolean
	onClose: () => void
	/** The company to transfer to; without it the dialog offers the user's companies. */
	company?: TransferCompany | null
	onTransferred?: (result: TransferResult) => void
}

/** Everything a transfer changes, refetched afterwards (the dashboard stats included, 1-core §2.5). */
export const TRANSFER_INVALIDATES = ['/api/credits', '/api/dashboard', '/api/activities', '/api/companies']

/** Whose pool pays: '' = the signed-in representative's own. */
const $poolOwner = atom('')
const $available = routeStore(
	'GET /api/credits/available',
	computed($poolOwner, (representanteCnpj) => ({ representanteCnpj }))
)

/** Fetches only while mounted: a store subscribed by a closed dialog would still load. */
function CompanyOptions({ value, onChange, id }: { value: string; onChange: (v: string) => void; id: string }) {
	const { data, loading, error } = useStore($companyOptions)
	return (
		<select id={id} className="select w-full" value={value} onChange={(e) => onChange(e.target.value)} aria-label="Empresa" required>
			<option value="">{loading ? 'Carregando empresas...' : error ? 'Erro ao carregar empresas' : 'Selecione a empresa'}</option>
			{data?.companies.map((c) => (
				<option key={c.codigo} value={c.codigo}>
					{c.razao}
				</option>
			))}
		</select>
	)
}

function useCompanyList(enabled: boolean) {
	const [list, setList] = useState<TransferCompany[]>([])
	useEffect(() => {
		if (!enabled) return
		return $companyOptions.subscribe((v) => setList(v.data?.companies ?? []))
	}, [enabled])
	return list
}

/**
 * Transfer credits to a company (1-core §2.11): company, system and quantity, the credits available and
 * a live preview of the new licence expiry: (current licence date, or today) + quantity × days per credit.
 */
export default function TransferCreditsDialog({ open, onClose, company, onTransferred }: TransferCreditsDialogProps) {
	const user = useStore($user)
	const config = useStore($configuracoes)
	const [empresa, setEmpresa] = useState('')
	const [sistema, setSistema] = useState('')
	const [quantidade, setQuantidade] = useState('1')
	const [error, setError] = useState<string | null>(null)
	const [pending, setPending] = useState(false)
	const ids = { empresa: useId(), sistema: useId(), qtd: useId() }
	const companies = useCompanyList(open && !company)

	const selected: TransferCompany | null = company ?? companies.find((c) => String(c.codigo) === empresa) ?? null
	const poolOwner = user?.tipo === 'representante' ? '' : (selected?.cnpj_representante ?? '')
	useEffect(() => {
		if (open) $poolOwner.set(poolOwner)
	}, [open, poolOwner])
	const available = useStore($available)
	// Reset when the dialog opens or the company changes (by code: callers may pass a new object each render).
	const companyCode = company?.codigo ?? null
	useEffect(() => {
		if (open) {
			setEmpresa(companyCode === null ? '' : String(companyCode))
			setSistema('')
			setQuantidade('1')
			setError(null)
		}
	}, [open, companyCode])

	// The spec's dialog starts at 30 days and takes app.valor_credito_dia once loaded (default 33).
	const daysPerCredit = config.data ? numericSetting(config.data, 'app.valor_credito_dia') : 30
	const qty = Number(quantidade)
	const preview = useMemo(() => {
		if (!selected || !Number.isInteger(qty) || qty <= 0) return null
		return extendedLicence(selected.validade_licenca, isoDateInSaoPaulo(new Date()), qty, daysPerCredit)
	}, [selected, qty, daysPerCredit])

	if (!user || !['representante', 'administrador', 'gerente'].includes(user.tipo)) return null
	const total = available.data?.total
	const knowsPool = user.tipo === 'representante' || !!selected

	async function submit(event: FormEvent) {
		event.preventDefault()
		if (!selected || !sistema || quantidade.trim() === '') return setError('Preencha todos os campos obrigatórios.')
		if (!Number.isInteger(qty) || qty <= 0) return setError('A quantidade de créditos deve ser maior que zero.')
		if (total !== undefined && qty > total) return setError(`Você possui apenas ${total} créditos disponíveis.`)
		setError(null)
		setPending(true)
		const result = await mutate(
			'POST /api/credits/transfer-to-company',
			{
				body: {
					empresaCodigo: selected.codigo,
					sistema: sistema as SystemName,
					creditos: qty,
					representanteCnpj: selected.cnpj_representante
				}
			},
			{
				success: {
					title: 'Créditos transferidos',
					description: `${qty} ${qty === 1 ? 'crédito transferido' : 'créditos transferidos'} para ${selected.razao}.`
				},
				errorTitle: 'Erro ao transferir créditos',
				invalidate: TRANSFER_INVALIDATES
			}
		)
		setPending(false)
		if (result) {
			onTransferred?.(result)
			onClose()
		}
	}

	const formId = `${ids.empresa}-form`
	return (
		<Modal
			open={open}
			onClose={onClose}
			title="Transferir Créditos para Empresa"
			footer={
				<ModalActions
					onCancel={onClose}
					form={formId}
					pending={pending}
					icon={<ArrowRightLeft className="size-4" aria-hidden="true" />}
					label="Transferir"
				/>
			}
		>
			<form id={formId} className="space-y-4" onSubmit={submit} noValidate>
				<div className="flex items-center gap-3 rounded-box bg-base-200 p-3" aria-live="polite">
					<Coins className="size-5 text-primary" aria-hidden="true" />
					<p className="text-sm">
						{knowsPool ? (
							<>
								Créditos disponíveis:{' '}
								<strong data-testid="transfer-available">{available.loading && total === undefined ? '…' : (total ?? 0)}</strong>
								{user.tipo !== 'representante' && selected && <span className="text-base-content/60"> (do representante da empresa)</span>}
							</>
						) : (
							'Selecione a empresa para ver os créditos do representante.'
						)}
					</p>
				</div>
				{company ? (
					<Field label="Empresa">
						<input className="input w-full" value={company.razao} readOnly />
					</Field>
				) : (
					<div>
						<label htmlFor={ids.empresa} className="mb-1 block text-sm font-medium">
							Empresa
						</label>
						{open && <CompanyOptions id={ids.empresa} value={empresa} onChange={setEmpresa} />}
					</div>
				)}
				<div>
					<label htmlFor={ids.sistema} className="mb-1 block text-sm font-medium">
						Sistema
					</label>
					<select id={ids.sistema} className="select w-full" value={sistema} onChange={(e) => setSistema(e.target.value)} required>
						<option value="">Selecione o sistema</option>
						{SYSTEM_CATALOGUE.map((s) => (
							<option key={s.name} value={s.name}>
								{s.name}
							</option>
						))}
					</select>
				</div>
				<div>
					<label htmlFor={ids.qtd} className="mb-1 block text-sm font-medium">
						Quantidade de créditos
					</label>
					<input
						id={ids.qtd}
						className="input w-full"
						type="number"
						inputMode="numeric"
						min={1}
						step={1}
						value={quantidade}
						onChange={(e) => setQuantidade(e.target.value)}
						required
					/>
					<span className="mt-1 block text-xs text-base-content/60">1 crédito = {daysPerCredit} dias de licença</span>
				</div>
				{selected && (
					<div className="rounded-box border border-base-300 p-3 text-sm" data-testid="transfer-preview">
						<p className="flex items-center gap-2 font-medium">
							<CalendarClock className="size-4 text-primary" aria-hidden="true" /> Validade da licença
						</p>
						<p className="mt-1 text-base-content/70">
							Atual:{' '}
							<span>{selected.validade_licenca ? formatDate(selected.validade_licenca) : 'Sem licença (conta a partir de hoje)'}</span>
						</p>
						{preview && (
							<p className="mt-1">
								Nova validade: <strong data-testid="transfer-new-expiry">{formatDate(preview.to)}</strong>{' '}
								<span className="text-base-content/60">(+{preview.days} dias)</span>
							</p>
						)}
					</div>
				)}
				<FormError message={error} />
			</form>
		</Modal>
	)
}
