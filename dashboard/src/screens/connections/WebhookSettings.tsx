import { SOURCES_TEXT } from '@fl0/contracts/sources'
import { CopyButton } from '../../ui/CopyButton.tsx'

/**
 * A Segment source's webhook (fl0's own, beside the spec's API key): the URL and
 * shared secret a Segment workspace's Webhooks destination, or a RudderStack
 * Webhook destination, forwards the source's events with, each with a copy
 * button. A new source has neither until it is saved: its id names the URL, and
 * its secret is made with it.
 */
export function WebhookSettings({ url, secret }: { url?: string; secret?: string }) {
  return (
    <section aria-labelledby="source-webhook-heading" className="space-y-3 border-t border-slate-200 pt-5">
      <h3 id="source-webhook-heading" className="text-sm font-medium text-slate-700">
        Webhook
      </h3>
      {url && secret ? (
        <>
          <p className="text-xs text-slate-500">
            Segment: a Webhooks destination, with the URL as its Webhook URL and the secret as its Shared Secret. RudderStack: a Webhook destination with the URL
            and the header <span className="whitespace-nowrap font-mono">Authorization: Bearer {'{secret}'}</span>.
          </p>
          <Copyable id="source-webhook-url" label="Webhook URL" value={url} copy={SOURCES_TEXT.copyWebhookUrl} copied={SOURCES_TEXT.webhookUrlCopied} />
          <Copyable id="source-webhook-secret" label="Webhook secret" value={secret} copy={SOURCES_TEXT.copyWebhookSecret} copied={SOURCES_TEXT.webhookSecretCopied} />
        </>
      ) : (
        <p className="text-xs text-slate-500">Save the source to get the webhook URL and secret a Segment or RudderStack workspace forwards its events with.</p>
      )}
    </section>
  )
}

function Copyable({ id, label, value, copy, copied }: { id: string; label: string; value: string; copy: string; copied: string }) {
  return (
    <div className="space-y-2">
      <p id={`${id}-label`} className="text-xs font-medium text-slate-600">
        {label}
      </p>
      <code aria-labelledby={`${id}-label`} className="block break-all rounded-md border border-slate-300 bg-slate-50 p-3 font-mono text-sm text-slate-800">
        {value}
      </code>
      <CopyButton text={value} label={copy} copiedMessage={copied} />
    </div>
  )
}
