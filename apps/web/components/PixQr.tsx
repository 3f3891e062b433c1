import { useEffect, useState } from 'react'

/**
 * The QR drawn in the browser from a PIX copy-and-paste code: 200 px, margin 2. The QR library is loaded only when a
 * code is shown (it was most of the autocompra page's first-visit script: issue 15).
 */
export function PixQr({ code }: { code: string }) {
	const [src, setSrc] = useState<string | null>(null)
	useEffect(() => {
		let live = true
		import('qrcode')
			.then(({ default: QRCode }) => QRCode.toDataURL(code, { width: 200, margin: 2 }))
			.then((url) => live && setSrc(url))
			.catch(() => live && setSrc(null))
		return () => {
			live = false
		}
	}, [code])
	if (!src) return <div className="skeleton size-[200px]" />
	return <img src={src} width={200} height={200} alt="QR Code PIX para pagamento" className="rounded-box border border-base-300 bg-white" />
}
