import { and, asc, eq, inArray } from 'drizzle-orm'
import type { DbOrTx } from '../../db/client'
import { OPEN_STATUSES } from './labels'
import { carneParcelas, carnes } from './schema'

/** An open parcel as the WhatsApp bot offers it to a client. */
export interface OpenParcel {
	id: number
	/** n of `total` */
	numero: number
	total: number
	valorCentavos: number
	/** YYYY-MM-DD */
	vencimento: string
	status: 'PENDING' | 'OVERDUE'
	boletoUrl: string | null
	/** The boleto's digitable line, when Asaas gave one. */
	identificationField: string | null
	pixCopyPaste: string | null
}

/** The PENDING and OVERDUE parcels of the company's active carnês, soonest due first. */
export async function openParcelsOfCompany(db: DbOrTx, empresaCodigo: number): Promise<OpenParcel[]> {
	return (await db
		.select({
			id: carneParcelas.id,
			numero: carneParcelas.numero,
			total: carnes.numero_parcelas,
			valorCentavos: carneParcelas.valor_centavos,
			vencimento: carneParcelas.vencimento,
			status: carneParcelas.status,
			boletoUrl: carneParcelas.boleto_url,
			identificationField: carneParcelas.linha_digitavel,
			pixCopyPaste: carneParcelas.pix_copia_cola
		})
		.from(carneParcelas)
		.innerJoin(carnes, eq(carnes.id, carneParcelas.carne_id))
		.where(
			and(eq(carneParcelas.empresa_codigo, empresaCodigo), inArray(carneParcelas.status, [...OPEN_STATUSES]), eq(carnes.status, 'ativo'))
		)
		.orderBy(asc(carneParcelas.vencimento), asc(carneParcelas.numero), asc(carneParcelas.id))) as OpenParcel[]
}
