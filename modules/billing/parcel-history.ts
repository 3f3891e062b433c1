import { eq } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { carneName, formatBrl } from '../core'
import { afterParcelClosed } from './dunning'
import { type EventType, isPaid } from './labels'
import { carneParcelas, carnes, historicoPagamentos } from './schema'

type ParcelRow = typeof carneParcelas.$inferSelect

/** A parcel removed at Asaas: cancelled here, with one `cancelamento` in the history. */
export async function markCancelled(tx: DbOrTx, parcel: ParcelRow, now: string, eventId: string | null) {
	if (parcel.status === 'CANCELED' || isPaid(parcel.status)) return
	await tx.update(carneParcelas).set({ status: 'CANCELED', updated_at: now }).where(eq(carneParcelas.id, parcel.id))
	await recordEvent(tx, parcel, 'cancelamento', now, eventId)
	// Nothing overdue left: a block for non-payment goes with it (dunning.ts).
	await afterParcelClosed(tx, { ...parcel, status: 'CANCELED' }, now)
}

/** One line of the history per (payment, kind of event): a repeat adds nothing. Answers whether the line is new. */
export async function recordEvent(
	tx: DbOrTx,
	parcel: Pick<
		ParcelRow,
		'id' | 'carne_id' | 'empresa_codigo' | 'representante_cnpj' | 'asaas_payment_id' | 'numero' | 'valor_centavos' | 'ciclo'
	>,
	tipo: EventType,
	now: string,
	eventId: string | null,
	valorCentavos = parcel.valor_centavos,
	/** Said after the line's usual words (a refund's renewal kept). */
	note?: string
) {
	const total = (await tx.select({ n: carnes.numero_parcelas }).from(carnes).where(eq(carnes.id, parcel.carne_id)))[0]?.n
	const what = {
		pagamento: 'paga',
		cancelamento: 'cancelada',
		estorno: 'estornada',
		vencimento: 'vencida',
		pagamento_desfeito: 'volta a aberta: recebimento em dinheiro desfeito',
		restauracao: 'restaurada no Asaas',
		disputa_vencida: 'paga: contestação vencida, valor em repasse',
		renovacao: 'renovou a licença'
	}[tipo]
	return (
		(
			await tx
				.insert(historicoPagamentos)
				.values({
					tipo_evento: tipo,
					parcela_id: parcel.id,
					carne_id: parcel.carne_id,
					empresa_codigo: parcel.empresa_codigo,
					representante_cnpj: parcel.representante_cnpj,
					valor_centavos: valorCentavos,
					data_evento: now,
					descricao: `Parcela ${parcel.numero}/${total ?? '?'} do ${carneName(parcel.carne_id)} ${what} (${formatBrl(valorCentavos)})${note ? `: ${note}` : ''}`,
					boleto_id: parcel.asaas_payment_id,
					asaas_evento_id: eventId,
					ciclo: parcel.ciclo
				})
				.onConflictDoNothing()
				.returning({ id: historicoPagamentos.id })
		).length > 0
	)
}
