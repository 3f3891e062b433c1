/**
 * Runs a backup off the main thread, so the portal keeps answering while the database is copied,
 * checked and compressed (see archive.ts).
 */
import { type ArchiveJob, buildArchive } from './archive'

declare var self: Worker

self.onmessage = async (event: MessageEvent<ArchiveJob>) => {
	postMessage(await buildArchive(event.data))
}
