import { useStore } from '@nanostores/react'
import { ArrowRightLeft, CalendarClock, Coins, RefreshCw, ShoppingCart } from 'lucide-react'
import { atom, computed } from 'nanostores'
import { useEffect, useMemo, useRef } from 'react'
import { SYSTEM_CATALOGUE, type SystemName, extendedLicence } from '../../../../modules/companies/model'
import { can, formatDate, isoDateInSaoPaulo } from '../../../../modules/core'
import { RenewBody, type TransferResult, TransferBody } from '../../../../modules/credits/model'
import { numericSetting } from '../../../../modules/settings/model'
import { FormDialog } from '../../components/Modal'
import { Field, SelectField, TextField } from '../../components/ui'
import type { GetRoute } from '../../lib/api'
import { type FieldErrors, type FormInput, useZodForm } from '../../lib/form'
import { mutate } from '../../lib/mutate'
import { routeStore } from '../../lib/query'
import { $configuracoes } from '../../lib/settings'
import { $companyOptions, type Company } from '../../stores/companies'
import { confirmAction } from '../../stores/confirm'
import { CREDIT_READS } from '../../stores/credits'
import { $user } from '../../stores/session'

export type TransferCompany = Pick<Company, 'codigo' | 'razao' | 'validade_licenca' | 'cnpj_representante'>

export interface TransferCreditsDialogProps {
	onClose: () => void
	/** The company to transfer to; without it the dialog offers the user's companies. */
	company?: TransferCompany | null
	/** A representative's renewal of this company (1-core §5): the prompt's words, 'Créditos renovados'. */
	renew?: boolean
	onTransferred?: (result: TransferResult) => void
}

/** Everything a transfer changes, refetched afterwards (the dashboard stats included, 1-core §2.5). */
export const TRANSFER_INVALIDATES: readonly GetRoute[] = [
	...CREDIT_READS,
	'GET /api/dashboard/stats',
	'GET /api/activities',
	'GET /api/activities/recent',
	'GET /api/companies'
]

/** Whose pool pays: '' = the signed-in representative's own. */
const $poolOwner = atom('')
const $available = routeStore(
	'GET /api/credits/available',
	computed($poolOwner, (representanteCnpj) => ({ representanteCnpj }))
)

const SYSTEM_OPTIONS = SYSTEM_CATALOGUE.map((s) => ({ value: s.name, label: s.name }))

const plural = (n: number, one: string, many: string) => `${n} ${n === 1 ? one : many}`

/**
 * Transfer credits to a company (1-core §2.11), or a representative's renewal of one: company, system and quantity,
 * the credits available and a live preview of the new expiry; then a confirmation that says what will happen
 * (company, credits, new expiry) before anything is spent (issue 14, point 2).
 */
export default function TransferCreditsDialog({ onClose, company, renew = false, onTransferred }: TransferCreditsDialogProps) {
	const user = useStore($user)
	const config = useStore($configuracoes)
	const options = useStore($companyOptions)
	const companies: TransferCompany[] = company ? [company] : (options.data?.companies ?? [])
	const ownPool = can(user?.tipo, 'credits.own')
	// The credits available, as last loaded: the form's own rule reads it (the pool depends on the company chosen).
	const totalRef = useRef<number | undefined>(undefined)

	const form = useZodForm({
		schema: renew ? RenewBody : TransferBody,
		initial: { empresa: company ? String(company.codigo) : '', sistema: '', quantidade: '1' },
		toInput: (v) => ({
			empresaCodigo: v.empresa === '' ? (undefined as unknown as number) : Number(v.empresa),
			sistema: (v.sistema || undefined) as SystemName,
			creditos: v.quantidade.trim() === '' ? (undefined as unknown as number) : Number(v.quantidade.replace(',', '.')),
			representanteCnpj: companies.find((c) => String(c.codigo) === v.empresa)?.cnpj_representante
		}),
		check: (v): FieldErrors => {
			const qty = Number(v.quantidade)
			const total = totalRef.current
			return total !== undefined && Number.isInteger(qty) && qty > total
				? { creditos: `Você possui apenas ${total} ${total === 1 ? 'crédito disponível' : 'créditos disponíveis'}.` }
				: {}
		}
	})
	const { values, text } = form
	const selected = companies.find((c) => String(c.codigo) === values.empresa) ?? null

	const poolOwner = ownPool ? '' : (selected?.cnpj_representante ?? '')
	useEffect(() => $poolOwner.set(poolOwner), [poolOwner])
	const available = useStore($available)
	const knowsPool = ownPool || !!selected
	const total = knowsPool ? available.data?.total : undefined
	totalRef.current = total

	// The spec's dialog starts at 30 days and takes app.valor_credito_dia once loaded (default 33).
	const daysPerCredit = config.data ? numericSetting(config.data, 'app.valor_credito_dia') : 30
	const qty = Number(values.quantidade)
	const preview = useMemo(() => {
		if (!selected || !Number.isInteger(qty) || qty <= 0) return null
		return extendedLicence(selected.validade_licenca, isoDateInSaoPaulo(new Date()), qty, daysPerCredit)
	}, [selected, qty, daysPerCredit])

	async function send(body: FormInput<typeof form>) {
		if (!selected || !preview) return null
		const ok = await confirmAction({
			title: renew ? 'Confirmar renovação' : 'Confirmar transferência',
			message: [
				`${renew ? 'Renovar' : 'Transferir para'} ${selected.razao}: ${plural(body.creditos, 'crédito', 'créditos')} do ${body.sistema}.`,
				`Validade da licença: ${selected.validade_licenca ? formatDate(selected.validade_licenca) : 'sem licença'} → ${formatDate(preview.to)} (+${preview.days} dias).`,
				'Esta ação não pode ser desfeita.'
			].join('\n'),
			confirmLabel: renew ? 'Renovar' : 'Transferir'
		})
		if (!ok) return null
		const result = await mutate(
			'POST /api/credits/transfer-to-company',
			{ body },
			{
				success: renew
					? { title: 'Créditos renovados', description: `${selected.razao}: licença até ${formatDate(preview.to)}.` }
					: {
							title: 'Créditos transferidos',
							description: `${plural(body.creditos, 'crédito transferido', 'créditos transferidos')} para ${selected.razao}.`
						},
				errorTitle: renew ? 'Erro na renovação' : 'Erro ao transferir créditos',
				errorFallback: renew ? 'Não foi possível renovar os créditos da empresa.' : undefined,
				invalidate: TRANSFER_INVALIDATES
			}
		)
		if (result) onTransferred?.(result)
		return result
	}

	if (!can(user?.tipo, 'credits.transfer')) return null
	const empty = ownPool && total === 0
	return (
		<FormDialog
			title={renew && company ? `Renovar créditos — ${company.razao}` : 'Transferir Créditos para Empresa'}
			form={form}
			send={send}
			onClose={onClose}
			disabled={empty}
			submitIcon={renew ? <RefreshCw className="size-4" aria-hidden="true" /> : <ArrowRightLeft className="size-4" aria-hidden="true" />}
			submitLabel={renew ? 'Renovar' : 'Transferir'}
		>
			<div className="flex items-center gap-3 rounded-box bg-base-200 p-3" aria-live="polite">
				<Coins className="size-5 text-primary" aria-hidden="true" />
				<p className="text-sm">
					{knowsPool ? (
						<>
							Créditos disponíveis:{' '}
							<strong data-testid="transfer-available">{available.loading && total === undefined ? '…' : (total ?? 0)}</strong>
							{!ownPool && <span className="text-base-content/70"> (do representante da empresa)</span>}
						</>
					) : (
						'Selecione a empresa para ver os créditos do representante.'
					)}
				</p>
			</div>
			{empty && (
				<div role="alert" className="alert alert-warning alert-soft flex flex-wrap">
					<span className="grow">Você não possui créditos disponíveis. Compre mais créditos para continuar.</span>
					<a href="/autocompra-creditos" className="btn btn-sm">
						<ShoppingCart className="size-4" aria-hidden="true" /> Comprar Créditos
					</a>
				</div>
			)}
			{company ? (
				<Field label="Empresa">
					<input className="input w-full" value={company.razao} readOnly />
				</Field>
			) : (
				<SelectField
					label="Empresa"
					aria-label="Empresa"
					placeholder={options.loading ? 'Carregando empresas...' : options.error ? 'Erro ao carregar empresas' : 'Selecione a empresa'}
					options={(options.data?.companies ?? []).map((c) => ({ value: c.codigo, label: c.razao }))}
					{...text('empresa', 'empresaCodigo')}
				/>
			)}
			<SelectField label="Sistema" placeholder="Selecione o sistema" options={SYSTEM_OPTIONS} {...text('sistema')} />
			<TextField
				label="Quantidade de créditos"
				hint={`1 crédito = ${daysPerCredit} dias de licença`}
				type="text"
				inputMode="numeric"
				{...text('quantidade', 'creditos')}
			/>
			{selected && (
				<div className="rounded-box border border-base-300 p-3 text-sm" data-testid="transfer-preview">
					<p className="flex items-center gap-2 font-medium">
						<CalendarClock className="size-4 text-primary" aria-hidden="true" /> Validade da licença
					</p>
					<p className="mt-1 text-base-content/70">
						Atual: <span>{selected.validade_licenca ? formatDate(selected.validade_licenca) : 'Sem licença (conta a partir de hoje)'}</span>
					</p>
					{preview && (
						<p className="mt-1">
							Nova validade: <strong data-testid="transfer-new-expiry">{formatDate(preview.to)}</strong>{' '}
							<span className="text-base-content/70">(+{preview.days} dias)</span>
						</p>
					)}
				</div>
			)}
		</FormDialog>
	)
}
