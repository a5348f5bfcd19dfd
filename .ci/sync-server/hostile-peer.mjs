// A hostile automerge-repo peer for Leechbook's adversary tests (tests/tests/hostile.rs): the
// real npm client, holding no campaign key and no join code. It knows a document's id (as a
// hub's operator, or anyone who watches it, does), finds the document on the hub, changes it
// as told, waits for the hub to take the change, and exits.
//
//   node hostile-peer.mjs URL DOCUMENT-ID ACTION [ARGS...]
//
// ACTION: delete-all (every root key), delete KEY..., junk KEY TEXT (bytes under KEY),
// text KEY N (a string of N characters under KEY).
import { Repo } from "@automerge/automerge-repo"
import { BrowserWebSocketClientAdapter } from "@automerge/automerge-repo-network-websocket"

const [url, documentId, action, ...args] = process.argv.slice(2)
const repo = new Repo({
  network: [new BrowserWebSocketClientAdapter(url)],
  sharePolicy: async () => true,
})
const handle = repo.find(`automerge:${documentId}`)
await handle.whenReady()
// The hub's copy arrives after the handle is ready: wait for its keys (up to ten seconds).
for (let i = 0; i < 100 && Object.keys(handle.docSync() ?? {}).length === 0; i++) {
  await new Promise((resolve) => setTimeout(resolve, 100))
}
console.log(`found ${Object.keys(handle.docSync() ?? {}).length} keys`)
handle.change((doc) => {
  switch (action) {
    case "delete-all":
      for (const key of Object.keys(doc)) delete doc[key]
      break
    case "delete":
      for (const key of args) delete doc[key]
      break
    case "junk":
      doc[args[0]] = new Uint8Array(Buffer.from(args[1]))
      break
    case "text":
      doc[args[0]] = "x".repeat(Number(args[1]))
      break
    default:
      throw new Error(`unknown action ${action}`)
  }
})
// The client has no "the server holds it" signal: give the change time to reach the hub.
await new Promise((resolve) => setTimeout(resolve, 1500))
process.exit(0)
