import { NavLink, Outlet, useOutletContext, useParams } from 'react-router';
import { ApiError } from '../api/http';
import { useInstanceQuery } from '../api/queries';
import type { InstanceDetailDto as Instance } from '@messaging-gateway/client';
import { ErrorNotice, LoadingBlock } from '../components/feedback';
import { StatusBadge } from '../components/status-badge';

/** The instance every tab works on. */
export function useCurrentInstance(): Instance {
  return useOutletContext<Instance>();
}

export function InstancePage() {
  const { instanceId = '' } = useParams();
  const instance = useInstanceQuery(instanceId);
  if (instance.isPending) return <LoadingBlock label="Loading the instance" />;
  if (instance.error) {
    const missing = instance.error instanceof ApiError && instance.error.status === 404;
    return (
      <ErrorNotice
        title={missing ? 'No such instance' : 'The instance could not be loaded'}
        error={instance.error}
        onRetry={missing ? undefined : () => void instance.refetch()}
      />
    );
  }
  const tabs = [
    { to: '.', label: 'Overview', end: true },
    { to: 'pairing', label: 'Pairing' },
    { to: 'webhooks', label: 'Webhooks & events' },
    { to: 'events', label: 'Event log' },
    { to: 'chats', label: 'Chats' },
    { to: 'compose', label: 'Compose' },
    { to: 'tester', label: 'Message tester' },
    { to: 'settings', label: 'Settings' },
    ...(instance.data.sandbox ? [{ to: 'phone', label: 'Sandbox phone' }] : []),
  ];
  return (
    <section className="page">
      <header className="page-header instance-header">
        <div>
          <h1>{instance.data.name}</h1>
          <div className="muted small mono">{instance.data.id}</div>
        </div>
        <div className="instance-meta">
          {instance.data.sandbox && <span className="tag">Sandbox</span>}
          <StatusBadge status={instance.data.status} />
        </div>
      </header>
      <nav className="tabs" aria-label="Instance sections">
        {tabs.map((tab) => (
          <NavLink key={tab.label} to={tab.to} end={tab.end} relative="route">
            {tab.label}
          </NavLink>
        ))}
      </nav>
      <Outlet context={instance.data} />
    </section>
  );
}
