import QRCode from 'qrcode';
import { useEffect, useRef, useState, type FormEvent } from 'react';
import { describeError } from '../api/http';
import { usePairCode, useLogout, useQrQuery, useRestartInstance, useSandboxPair } from '../api/queries';
import { ConfirmButton } from '../components/confirm-button';
import { CurlPreview } from '../components/curl-preview';
import { InlineError, LoadingBlock } from '../components/feedback';
import { useCurrentInstance } from './instance-page';

/** How long the network keeps one QR code before offering the next. */
const QR_LIFETIME_SECONDS = 20;

export function PairingPanel() {
  const instance = useCurrentInstance();
  const paired = instance.status === 'connected' || instance.status === 'connecting' || instance.status === 'disconnected';
  return paired ? <PairedPanel /> : <UnpairedPanel />;
}

function PairedPanel() {
  const instance = useCurrentInstance();
  const logout = useLogout();
  return (
    <section className="card pairing-done" aria-labelledby="paired-title">
      <div className="big-check" aria-hidden="true">
        ✓
      </div>
      <h2 id="paired-title">
        {instance.status === 'connected' ? 'Connected' : instance.status === 'connecting' ? 'Paired, connecting…' : 'Paired, link down'}
      </h2>
      <p>
        Linked device <span className="mono">{instance.deviceId}</span>
      </p>
      <ConfirmButton
        label="Log out"
        title="Log this phone out?"
        confirmLabel="Log out"
        onConfirm={() => logout.mutate(instance.id)}
        disabled={logout.isPending}
      >
        <p>The linked device is removed from the phone. To use this instance again, pair it again.</p>
      </ConfirmButton>
      <InlineError>{logout.error ? describeError(logout.error) : null}</InlineError>
      <CurlPreview request={{ method: 'POST', path: '/session/logout', instanceId: instance.id }} />
    </section>
  );
}

function UnpairedPanel() {
  const instance = useCurrentInstance();
  return (
    <div className="pairing-grid">
      <QrCard />
      <div className="stack">
        <PairCodeCard />
        {instance.sandbox && <SandboxScanCard />}
      </div>
      <p className="muted full">This page turns to “Connected” by itself as soon as the phone links; no need to reload.</p>
      <span className="sr-only" aria-live="polite">
        Status: {instance.status}
      </span>
    </div>
  );
}

/** Seconds left for the QR code currently shown, restarting whenever the code changes. */
function useCountdown(code: string | undefined): number {
  const [left, setLeft] = useState(QR_LIFETIME_SECONDS);
  const shownAt = useRef(Date.now());
  useEffect(() => {
    shownAt.current = Date.now();
    setLeft(QR_LIFETIME_SECONDS);
  }, [code]);
  useEffect(() => {
    const timer = setInterval(() => setLeft(Math.max(0, QR_LIFETIME_SECONDS - Math.floor((Date.now() - shownAt.current) / 1000))), 250);
    return () => clearInterval(timer);
  }, []);
  return left;
}

function QrCard() {
  const instance = useCurrentInstance();
  const qr = useQrQuery(instance.id, true);
  const restart = useRestartInstance();
  const [image, setImage] = useState<string | null>(null);
  const code = qr.data?.code;
  const left = useCountdown(code);
  useEffect(() => {
    let current = true;
    if (code) void QRCode.toDataURL(code, { margin: 1, width: 264, errorCorrectionLevel: 'L' }).then((url) => current && setImage(url));
    else setImage(null);
    return () => {
      current = false;
    };
  }, [code]);

  return (
    <section className="card qr-card" aria-labelledby="qr-title">
      <h2 id="qr-title">Scan the QR code</h2>
      <p className="muted small">On the phone: WhatsApp → Settings → Linked devices → Link a device.</p>
      {qr.isPending ? (
        <LoadingBlock label="Waiting for a QR code" />
      ) : !image ? (
        <div className="qr-missing">
          <p>{qr.error ? describeError(qr.error) : 'No QR code is on offer right now.'}</p>
          <p className="muted small">The network stops offering codes after a few minutes; restart the session for fresh ones.</p>
          <button
            type="button"
            className="button"
            onClick={() => restart.mutate(instance.id, { onSuccess: () => void qr.refetch() })}
            disabled={restart.isPending}
          >
            {restart.isPending ? 'Restarting…' : 'Restart pairing'}
          </button>
        </div>
      ) : (
        <>
          <img className="qr" src={image} alt="Pairing QR code" width={264} height={264} data-code-length={code?.length} />
          <div className="countdown" aria-live="off">
            <div className="countdown-bar" style={{ width: `${(left / QR_LIFETIME_SECONDS) * 100}%` }} />
          </div>
          <p className="small muted">{left > 0 ? `Refreshes in about ${left} s` : 'A new code is on its way…'}</p>
        </>
      )}
      <CurlPreview request={{ method: 'GET', path: '/session/qr', instanceId: instance.id }} />
    </section>
  );
}

function PairCodeCard() {
  const instance = useCurrentInstance();
  const pairCode = usePairCode();
  const [phone, setPhone] = useState('');
  const digits = phone.replace(/[^\d]/g, '');
  const submit = (event: FormEvent) => {
    event.preventDefault();
    pairCode.mutate({ id: instance.id, phone: digits });
  };
  return (
    <form className="card" onSubmit={submit} aria-labelledby="pair-code-title">
      <h2 id="pair-code-title">Or pair with a phone number</h2>
      <label className="field">
        <span>Phone number (international)</span>
        <input inputMode="tel" placeholder="+1 415 555 0123" value={phone} onChange={(event) => setPhone(event.target.value)} />
      </label>
      <button type="submit" className="button" disabled={pairCode.isPending || digits.length < 7}>
        Get pairing code
      </button>
      <InlineError>{pairCode.error ? describeError(pairCode.error) : null}</InlineError>
      {pairCode.data && (
        <div className="pair-code" aria-label="Pairing code">
          {pairCode.data.code}
        </div>
      )}
      {pairCode.data && <p className="muted small">On the phone: Linked devices → Link with phone number instead, then type this code.</p>}
      <CurlPreview request={{ method: 'GET', path: `/session/pair-code/${digits || '<phone>'}`, instanceId: instance.id }} />
    </form>
  );
}

/** Sandbox only: plays the phone scanning the code, through the documented /sandbox/pair route. */
function SandboxScanCard() {
  const instance = useCurrentInstance();
  const pair = useSandboxPair(instance.id);
  return (
    <section className="card" aria-labelledby="sandbox-scan-title">
      <h2 id="sandbox-scan-title">Sandbox: scan with a simulated phone</h2>
      <p className="muted small">No phone needed: the sandbox network links a simulated device.</p>
      <button type="button" className="button button-primary" onClick={() => pair.mutate(undefined)} disabled={pair.isPending}>
        {pair.isPending ? 'Scanning…' : 'Simulate scan'}
      </button>
      <InlineError>{pair.error ? describeError(pair.error) : null}</InlineError>
      <CurlPreview request={{ method: 'POST', path: '/sandbox/pair', instanceId: instance.id, body: {} }} />
    </section>
  );
}
