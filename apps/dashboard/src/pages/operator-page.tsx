import { useState, type FormEvent } from 'react';
import { describeError, type Credentials } from '../api/http';
import {
  useCreateCustomer,
  useCustomerUsersQuery,
  useCustomersQuery,
  useDisableCustomer,
  useOverviewQuery,
  usePasswordReset,
} from '../api/queries';
import type { CreatedCustomerDto as CreatedCustomer } from '@messaging-gateway/client';
import { ConfirmButton } from '../components/confirm-button';
import { EmptyState, ErrorNotice, InlineError, LoadingBlock } from '../components/feedback';
import { OneTimeSecret } from '../components/one-time-secret';

/** The operator console: the admin key lives in this component's memory only (never stored, gone on reload). */
export function OperatorPage() {
  const [adminKey, setAdminKey] = useState<string | null>(null);
  const [draft, setDraft] = useState('');
  if (!adminKey) {
    return (
      <main className="auth-page">
        <form
          className="card auth-card"
          aria-labelledby="operator-title"
          onSubmit={(event) => {
            event.preventDefault();
            setAdminKey(draft.trim());
            setDraft('');
          }}
        >
          <h1 id="operator-title">Operator console</h1>
          <p className="muted small">The admin key is kept in this tab's memory only and forgotten when you reload or close it.</p>
          <label className="field">
            <span>Admin key</span>
            <input type="password" autoComplete="off" required value={draft} onChange={(event) => setDraft(event.target.value)} />
          </label>
          <button type="submit" className="button button-primary">
            Open console
          </button>
        </form>
      </main>
    );
  }
  return <OperatorConsole credentials={{ kind: 'admin', adminKey }} onLeave={() => setAdminKey(null)} />;
}

function OperatorConsole({ credentials, onLeave }: { credentials: Credentials; onLeave: () => void }) {
  return (
    <div className="shell">
      <header className="topbar">
        <div className="brand">
          <span className="brand-mark" aria-hidden="true" />
          <span>Operator console</span>
        </div>
        <button type="button" className="button button-quiet" onClick={onLeave}>
          Forget admin key
        </button>
      </header>
      <main id="main" className="main page stack">
        <HealthOverview credentials={credentials} />
        <Customers credentials={credentials} />
      </main>
    </div>
  );
}

function HealthOverview({ credentials }: { credentials: Credentials }) {
  const overview = useOverviewQuery(credentials);
  return (
    <section className="card" aria-labelledby="health-title">
      <h2 id="health-title">Health</h2>
      {overview.isPending ? (
        <LoadingBlock label="Reading the fleet" />
      ) : overview.error ? (
        <ErrorNotice error={overview.error} onRetry={() => void overview.refetch()} />
      ) : (
        <>
          <div className="stats">
            <Stat label="Workers" value={overview.data.workers.length} bad={overview.data.workers.length === 0} />
            <Stat
              label="Shards owned"
              value={`${overview.data.shards.owned} / ${overview.data.shards.total}`}
              bad={overview.data.shards.unowned > 0}
            />
            <Stat label="Instances" value={overview.data.instances.total} />
            <Stat label="Customers" value={overview.data.customers.total} />
            <Stat label="Disabled customers" value={overview.data.customers.disabled} />
            {Object.entries(overview.data.instances.byStatus).map(([status, count]) => (
              <Stat key={status} label={`Instances ${status}`} value={count} />
            ))}
          </div>
          <ul className="plain-list" aria-label="Workers">
            {overview.data.workers.map((worker) => (
              <li key={worker.id} className="small">
                <span className="mono">{worker.id}</span> · {worker.shards.length} shard{worker.shards.length === 1 ? '' : 's'} · alive
                until {new Date(worker.aliveUntil).toLocaleTimeString()}
              </li>
            ))}
          </ul>
        </>
      )}
    </section>
  );
}

function Stat({ label, value, bad }: { label: string; value: string | number; bad?: boolean }) {
  return (
    <div className={bad ? 'stat stat-bad' : 'stat'}>
      <div className="stat-value">{value}</div>
      <div className="muted small">{label}</div>
    </div>
  );
}

function Customers({ credentials }: { credentials: Credentials }) {
  const customers = useCustomersQuery(credentials);
  const create = useCreateCustomer(credentials);
  const disable = useDisableCustomer(credentials);
  const [name, setName] = useState('');
  const [ownerEmail, setOwnerEmail] = useState('');
  const [created, setCreated] = useState<CreatedCustomer | null>(null);
  const submit = (event: FormEvent) => {
    event.preventDefault();
    create.mutate(
      { name: name.trim(), ...(ownerEmail.trim() ? { ownerEmail: ownerEmail.trim() } : {}) },
      {
        onSuccess: (customer) => {
          setName('');
          setOwnerEmail('');
          setCreated(customer);
        },
      },
    );
  };
  return (
    <section className="card" aria-labelledby="customers-title">
      <h2 id="customers-title">Customers</h2>
      <form className="form-inline" onSubmit={submit} aria-label="Create a customer">
        <label className="field grow">
          <span>Customer name</span>
          <input required value={name} maxLength={200} onChange={(event) => setName(event.target.value)} />
        </label>
        <label className="field grow">
          <span>Owner's email</span>
          <input type="email" value={ownerEmail} onChange={(event) => setOwnerEmail(event.target.value)} />
        </label>
        <button type="submit" className="button button-primary" disabled={create.isPending}>
          Create customer
        </button>
        <InlineError>{create.error ? describeError(create.error) : null}</InlineError>
      </form>
      {created?.ownerInvite && (
        <OneTimeSecret
          label={`Invite link for ${created.name}`}
          value={created.ownerInvite.url}
          warning="Give this link to the owner; it works once and expires."
          onDismiss={() => setCreated(null)}
        />
      )}
      {created?.apiKey && !created.ownerInvite && (
        <OneTimeSecret
          label={`API key of ${created.name}`}
          value={created.apiKey}
          warning="The customer's API key; it cannot be shown again."
          onDismiss={() => setCreated(null)}
        />
      )}
      {customers.isPending ? (
        <LoadingBlock label="Loading customers" />
      ) : customers.error ? (
        <ErrorNotice error={customers.error} onRetry={() => void customers.refetch()} />
      ) : customers.data.items.length === 0 ? (
        <EmptyState title="No customers yet" />
      ) : (
        <ul className="instance-list" aria-label="Customers">
          {customers.data.items.map((customer) => (
            <li key={customer.id} className="instance-row">
              <div>
                <strong>{customer.name}</strong> {customer.disabled && <span className="tag tag-bad">Disabled</span>}
                <div className="muted small mono">{customer.id}</div>
                <details className="customer-users">
                  <summary>Dashboard users</summary>
                  <CustomerUsers credentials={credentials} customerId={customer.id} />
                </details>
              </div>
              {customer.disabled ? (
                <button type="button" className="button" onClick={() => disable.mutate({ id: customer.id, disabled: false })}>
                  Enable
                </button>
              ) : (
                <ConfirmButton
                  label={`Disable ${customer.name}`}
                  title={`Disable ${customer.name}?`}
                  confirmLabel="Disable"
                  onConfirm={() => disable.mutate({ id: customer.id, disabled: true })}
                >
                  <p>Its keys and dashboard sessions stop working until it is enabled again.</p>
                </ConfirmButton>
              )}
            </li>
          ))}
        </ul>
      )}
      <InlineError>{disable.error ? describeError(disable.error) : null}</InlineError>
    </section>
  );
}

/** A customer's dashboard users, with "forgot password": a fresh one-time link the operator hands over. */
function CustomerUsers({ credentials, customerId }: { credentials: Credentials; customerId: string }) {
  const users = useCustomerUsersQuery(credentials, customerId);
  const reset = usePasswordReset(credentials);
  const [link, setLink] = useState<{ email: string; url: string } | null>(null);
  if (users.isPending) return <LoadingBlock label="Loading users" />;
  if (users.error) return <ErrorNotice error={users.error} onRetry={() => void users.refetch()} />;
  if (users.data.length === 0)
    return <p className="muted small">No dashboard users: create the customer with an owner email to invite one.</p>;
  return (
    <>
      <ul className="plain-list">
        {users.data.map((user) => (
          <li key={user.id} className="row">
            <span>{user.email}</span>
            <span className="muted small">{user.status}</span>
            <button
              type="button"
              className="button"
              disabled={reset.isPending}
              onClick={() =>
                reset.mutate(
                  { customerId, userId: user.id },
                  { onSuccess: (answer) => setLink({ email: user.email, url: answer.inviteUrl }) },
                )
              }
            >
              Password reset link for {user.email}
            </button>
          </li>
        ))}
      </ul>
      <InlineError>{reset.error ? describeError(reset.error) : null}</InlineError>
      {link && (
        <OneTimeSecret
          label={`Password reset link for ${link.email}`}
          value={link.url}
          warning="It works once and expires; give it to the user yourself."
          onDismiss={() => setLink(null)}
        />
      )}
    </>
  );
}
