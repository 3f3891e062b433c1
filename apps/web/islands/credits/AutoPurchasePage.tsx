import { useStore } from '@nanostores/react'
import { AlertTriangle, CheckCircle2, Clock, Copy, QrCode, RefreshCw, ShieldCheck, ShoppingCart, XCircle, Zap } from 'lucide-react'
import { useEffect, useRef, useState } from 'react'
import { formatDate, formatNumber, formatReais } from '../../../../modules/core'
import {
	type AutoPurchaseAvailability,
	type AutoPurchaseResult,
	MAX_PURCHASE_CREDITS,
	type PurchaseStatus,
	purchaseQuantityProblem
} from '../../../../modules/credits/model'
import { PageRoot } from '../../components/PageRoot'
import { PixQr } from '../../components/PixQr'
import { TitledSection } from '../../components/TitledSection'
import { ErrorPanel } from '../../components/ui'
import { call, errorText } from '../../lib/api'
import { usePending } from '../../lib/hooks'
import { invalidateReads, routeStore } from '../../lib/query'
import { $configuracoes, savedNumber } from '../../lib/settings'
import { confirmAction } from '../../stores/confirm'
import { CREDIT_READS } from '../../stores/credits'
import { toast } from '../../stores/toast'

const POLL_MS = 5_000
const POLL_FOR_MS = 30 * 60_000
const $available = routeStore('GET /api/credits/available')
const $availability = routeStore('GET /api/credits/auto-purchase/status')

const STATUS_WORDS: Record<PurchaseStatus, string> = {
	PENDING: 'Aguardando pagamento',
	CONFIRMED: 'Pagamento confirmado',
	CANCELLED: 'Cancelado',
	EXPIRED: 'Expirado'
}

/** The typed quantity when it is one the server accepts (1–1000 whole credits, spec 3 §5); otherwise 0, never clamped. */
function quantityOf(text: string): number {
	return purchaseQuantityProblem(text) ? 0 : Number(text.trim())
}

function PurchaseForm({ onBought }: { onBought: (result: AutoPurchaseResult) => void }) {
	const config = useStore($configuracoes)
	const [text, setText] = useState('1')
	const unit = savedNumber(config.data, 'app.valor_credito_individual', 50)
	const days = savedNumber(config.data, 'app.valor_credito_dia', 33)
	const quantity = quantityOf(text)
	const problem = purchaseQuantityProblem(text)
	const [showProblem, setShowProblem] = useState(false)
	const total = Math.round(quantity * unit * 100) / 100

	const [busy, purchase] = usePending(async () => {
		try {
			const result = await call('POST /api/credits/auto-purchase', { body: { quantidade: quantity, metodoPagamento: 'PIX' } })
			toast({ title: 'Compra processada', description: 'Pague o PIX para receber os créditos.', variant: 'success' })
			onBought(result)
		} catch (error) {
			toast({ title: 'Erro na compra', description: errorText(error, 'Erro ao processar compra'), variant: 'destructive' })
		}
	})

	async function buy() {
		setShowProblem(true)
		if (problem) return
		await purchase()
	}

	if (config.error)
		return (
			<ErrorPanel title="Erro ao carregar configurações" message={errorText(config.error)} onRetry={() => $configuracoes.revalidate()} />
		)
	return (
		<div className="grid gap-4 lg:grid-cols-2">
			<TitledSection
				id="compra-title"
				title="Comprar Créditos"
				className="space-y-4"
				icon={<ShoppingCart className="size-5 text-primary" aria-hidden="true" />}
			>
				<form
					className="space-y-4"
					onSubmit={(e) => {
						e.preventDefault()
						void buy()
					}}
				>
					<label className="block">
						<span className="mb-1 block text-sm font-medium">Quantidade de créditos</span>
						<input
							className="input w-full"
							type="number"
							inputMode="numeric"
							min={1}
							max={MAX_PURCHASE_CREDITS}
							step={1}
							value={text}
							onChange={(e) => {
								setText(e.target.value)
								setShowProblem(true)
							}}
							aria-invalid={showProblem && !!problem}
							aria-describedby="quantidade-dica quantidade-erro"
						/>
						<span id="quantidade-dica" className="mt-1 block text-xs text-base-content/70">
							Mínimo: 1 crédito | Máximo: {formatNumber(MAX_PURCHASE_CREDITS)} créditos
						</span>
						{showProblem && problem && (
							<span id="quantidade-erro" className="mt-1 block text-xs text-error" role="alert">
								{problem}
							</span>
						)}
					</label>
					<div className="flex gap-3 rounded-box bg-base-200 p-3 text-sm">
						<Zap className="size-5 shrink-0 text-success" aria-hidden="true" />
						<div>
							<p className="font-medium">Pagamento via PIX</p>
							<p className="text-base-content/70">Aprovação em segundos: os créditos entram sozinhos assim que o pagamento chega.</p>
						</div>
					</div>
					<button type="submit" className="btn btn-primary w-full" disabled={busy}>
						{busy ? <span className="loading loading-spinner loading-sm" /> : <ShoppingCart className="size-4" aria-hidden="true" />}
						Comprar por {formatReais(total)}
					</button>
				</form>
			</TitledSection>
			<TitledSection id="resumo-title" title="Resumo da compra" className="space-y-3">
				<dl className="grid grid-cols-2 gap-2 text-sm">
					<dt className="text-base-content/70">Quantidade</dt>
					<dd className="text-right tabular-nums">{formatNumber(quantity)}</dd>
					<dt className="text-base-content/70">Valor unitário</dt>
					<dd className="text-right tabular-nums">{formatReais(unit)}</dd>
					<dt className="border-t border-base-300 pt-2 font-semibold">Total</dt>
					<dd className="border-t border-base-300 pt-2 text-right text-lg font-bold tabular-nums" data-testid="purchase-total">
						{formatReais(total)}
					</dd>
				</dl>
				<div className="rounded-box bg-base-200 p-3 text-sm">
					<p className="mb-2 font-medium">Você recebe</p>
					<ul className="space-y-1">
						<li className="flex gap-2">
							<CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" /> {formatNumber(quantity)}{' '}
							{quantity === 1 ? 'crédito' : 'créditos'} em estoque
						</li>
						<li className="flex gap-2">
							<CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" /> {formatNumber(quantity * days)} dias de licença
							para as suas empresas
						</li>
						<li className="flex gap-2">
							<CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" /> Ativação automática após o pagamento
						</li>
						<li className="flex gap-2">
							<CheckCircle2 className="size-4 shrink-0 text-success" aria-hidden="true" /> Suporte técnico
						</li>
					</ul>
				</div>
			</TitledSection>
		</div>
	)
}

function StatusBox({ status, value }: { status: PurchaseStatus; value: number }) {
	if (status === 'CONFIRMED') {
		return (
			<div role="status" className="alert alert-success">
				<CheckCircle2 className="size-5" aria-hidden="true" />
				<div>
					<p className="font-semibold">🎉 Pagamento Confirmado!</p>
					<p className="text-sm">{formatReais(value)} recebidos: os créditos já estão disponíveis.</p>
				</div>
			</div>
		)
	}
	if (status === 'CANCELLED' || status === 'EXPIRED') {
		return (
			<div role="status" className="alert alert-error">
				<XCircle className="size-5" aria-hidden="true" />
				<div>
					<p className="font-semibold">Pagamento não realizado</p>
					<p className="text-sm">Status: {STATUS_WORDS[status]}. Faça uma nova compra para gerar outro PIX.</p>
				</div>
			</div>
		)
	}
	return (
		<div role="status" className="alert alert-info">
			<Clock className="size-5" aria-hidden="true" />
			<div>
				<p className="font-semibold">Aguardando pagamento</p>
				<p className="text-sm">Esta tela confirma sozinha assim que o PIX for pago.</p>
			</div>
		</div>
	)
}

function PaymentView({ purchase, onReset }: { purchase: AutoPurchaseResult; onReset: () => void }) {
	const [status, setStatus] = useState<PurchaseStatus>('PENDING')
	const [code, setCode] = useState(purchase.pixCopyPaste)
	const [loadingQr, setLoadingQr] = useState(false)
	const [checking, setChecking] = useState(false)
	const started = useRef(Date.now())
	const chargeId = purchase.chargeId

	function settle(next: PurchaseStatus, value: number) {
		setStatus(next)
		if (next === 'CONFIRMED') {
			toast({
				title: '🎉 Pagamento Confirmado!',
				description: `${formatReais(value)}: ${purchase.quantidade} créditos adicionados.`,
				variant: 'success'
			})
			invalidateReads(CREDIT_READS)
		} else if (next === 'CANCELLED' || next === 'EXPIRED') {
			toast({ title: 'Pagamento não realizado', description: `Status: ${STATUS_WORDS[next]}`, variant: 'destructive' })
		}
	}

	// Every 5 s while the payment is awaited, for at most 30 minutes; the answer comes from the portal's database.
	useEffect(() => {
		if (status !== 'PENDING') return
		const timer = setInterval(async () => {
			if (Date.now() - started.current > POLL_FOR_MS) return clearInterval(timer)
			try {
				const result = await call('GET /api/credits/payment-status/:chargeId', { params: { chargeId } })
				if (result.status !== 'PENDING') settle(result.status, result.value)
			} catch {
				// A failed check is silent (spec 3 §8): the next one tries again.
			}
		}, POLL_MS)
		return () => clearInterval(timer)
	}, [status, chargeId])

	async function checkNow() {
		setChecking(true)
		try {
			const result = await call('GET /api/credits/payment-status/:chargeId', { params: { chargeId } })
			if (result.status === 'PENDING')
				toast({ title: 'Aguardando pagamento', description: 'O pagamento ainda não foi identificado.', variant: 'info' })
			else settle(result.status, result.value)
		} catch {
			// Swallowed like the polling's.
		} finally {
			setChecking(false)
		}
	}

	async function loadQr() {
		setLoadingQr(true)
		try {
			const result = await call('GET /api/credits/pix-qrcode/:chargeId', { params: { chargeId } })
			if (!result.success || !result.pixCopyPaste) throw new Error('sem código')
			setCode(result.pixCopyPaste)
			toast({ title: 'QR Code carregado!', variant: 'success' })
		} catch {
			toast({ title: 'Falha ao buscar QR code', description: 'Não foi possível carregar o QR Code PIX', variant: 'destructive' })
		} finally {
			setLoadingQr(false)
		}
	}

	async function copy() {
		try {
			await navigator.clipboard.writeText(code ?? '')
			toast({ title: 'Copiado!', description: 'Cole o código no app do seu banco, em PIX Copia e Cola.', variant: 'success' })
		} catch {
			toast({ title: 'Erro', description: 'Não foi possível copiar o código', variant: 'destructive' })
		}
	}

	// A PIX still awaited stays payable after the buyer leaves it: they are asked first, and told where the
	// payment will show (the server notifies them in the top bar when it credits the purchase).
	async function newPurchase() {
		if (status === 'PENDING') {
			const ok = await confirmAction({
				title: 'PIX ainda não pago',
				message:
					'O PIX desta compra continua valendo até o vencimento. Se for pago depois, os créditos entram no seu saldo e você é avisado nas notificações.',
				confirmLabel: 'Fazer nova compra',
				cancelLabel: 'Voltar'
			})
			if (!ok) return
		}
		onReset()
	}

	const open = status === 'PENDING'
	return (
		<div className="grid gap-4 lg:grid-cols-2">
			<TitledSection id="pagamento-title" title="Pagamento da compra" className="space-y-4">
				<dl className="grid grid-cols-2 gap-2 text-sm">
					<dt className="text-base-content/70">Quantidade</dt>
					<dd className="text-right tabular-nums">
						{formatNumber(purchase.quantidade)} {purchase.quantidade === 1 ? 'crédito' : 'créditos'}
					</dd>
					<dt className="text-base-content/70">Total</dt>
					<dd className="text-right font-semibold tabular-nums">{formatReais(purchase.valor)}</dd>
					<dt className="text-base-content/70">Método</dt>
					<dd className="text-right">PIX</dd>
					<dt className="text-base-content/70">Vencimento</dt>
					<dd className="text-right">{formatDate(purchase.vencimento)}</dd>
				</dl>
				<StatusBox status={status} value={purchase.valor} />
				<div className="flex flex-col gap-2 sm:flex-row">
					<button type="button" className="btn sm:flex-1" onClick={newPurchase}>
						<ShoppingCart className="size-4" aria-hidden="true" /> Fazer Nova Compra
					</button>
					{open && (
						<button type="button" className="btn btn-primary sm:flex-1" onClick={checkNow} disabled={checking}>
							{checking ? <span className="loading loading-spinner loading-sm" /> : <RefreshCw className="size-4" aria-hidden="true" />}
							Verificar Pagamento
						</button>
					)}
				</div>
			</TitledSection>
			{open && (
				// On a phone the code comes first: the buyer pays from the same phone, with PIX Copia e Cola.
				<TitledSection
					id="pix-title"
					title="Pague com PIX"
					icon={<QrCode className="size-5 text-primary" aria-hidden="true" />}
					className="order-first space-y-4 lg:order-none"
				>
					{code ? (
						<div className="flex flex-col gap-4">
							<div className="order-last flex justify-center sm:order-first">
								<PixQr code={code} />
							</div>
							<label className="block">
								<span className="mb-1 block text-sm font-medium">PIX Copia e Cola</span>
								<textarea className="textarea w-full font-mono text-xs" rows={4} readOnly value={code} onFocus={(e) => e.target.select()} />
							</label>
							<button type="button" className="btn btn-primary w-full" onClick={copy}>
								<Copy className="size-4" aria-hidden="true" /> Copiar
							</button>
						</div>
					) : (
						<div className="space-y-3 text-center">
							<p className="text-sm text-base-content/70">O código PIX ainda não está pronto.</p>
							<button type="button" className="btn" onClick={loadQr} disabled={loadingQr}>
								{loadingQr ? <span className="loading loading-spinner loading-sm" /> : <QrCode className="size-4" aria-hidden="true" />}
								Carregar QR Code
							</button>
						</div>
					)}
					<div className="text-sm">
						<p className="mb-2 font-medium">Como pagar</p>
						<ol className="list-decimal space-y-1 pl-5 text-base-content/80">
							<li>Abra o app do seu banco e escolha PIX.</li>
							<li>Escaneie o QR Code ou use PIX Copia e Cola com o código acima.</li>
							<li>Confira o valor de {formatReais(purchase.valor)} e confirme o pagamento.</li>
							<li>Aguarde nesta tela: os créditos entram automaticamente em segundos.</li>
						</ol>
					</div>
				</TitledSection>
			)}
		</div>
	)
}

/** The badge over the form: what the server says of the vendor's account and webhook (nothing while it is read). */
function AvailabilityBadge({ availability }: { availability: AutoPurchaseAvailability | undefined }) {
	if (!availability) return <span className="skeleton h-6 w-28" aria-hidden="true" />
	if (availability.situacao === 'ativo')
		return (
			<span className="badge badge-success badge-soft gap-1">
				<ShieldCheck className="size-3.5" aria-hidden="true" /> Sistema ativo
			</span>
		)
	return availability.situacao === 'atrasado' ? (
		<span className="badge badge-warning badge-soft gap-1">
			<Clock className="size-3.5" aria-hidden="true" /> Confirmação com atraso
		</span>
	) : (
		<span className="badge badge-error badge-soft gap-1">
			<XCircle className="size-3.5" aria-hidden="true" /> Sistema indisponível
		</span>
	)
}

/** Autocompra de Créditos (spec 3 §2): a representante buys credits from the vendor and pays by PIX. */
export default function AutoPurchasePage() {
	const available = useStore($available)
	const availability = useStore($availability).data
	const [purchase, setPurchase] = useState<AutoPurchaseResult | null>(null)
	const unavailable = availability?.situacao === 'indisponivel'
	return (
		<PageRoot>
			<div className="space-y-4">
				<div className="flex flex-wrap items-center justify-between gap-3">
					<AvailabilityBadge availability={availability} />
					<p className="text-sm">
						Créditos disponíveis:{' '}
						<span className="font-semibold tabular-nums" data-testid="credits-available">
							{available.data ? formatNumber(available.data.total) : '…'}
						</span>
					</p>
				</div>
				{availability?.mensagem && (
					<div role={unavailable ? 'alert' : 'status'} className={`alert alert-soft ${unavailable ? 'alert-error' : 'alert-warning'}`}>
						<AlertTriangle className="size-5 shrink-0" aria-hidden="true" />
						<span>{availability.mensagem}</span>
					</div>
				)}
				{purchase ? (
					<PaymentView purchase={purchase} onReset={() => setPurchase(null)} />
				) : (
					!unavailable && <PurchaseForm onBought={setPurchase} />
				)}
			</div>
		</PageRoot>
	)
}
