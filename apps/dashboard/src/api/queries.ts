// The one query layer: every page reads and writes the API through these hooks, so cache keys, invalidation and
// credentials live in one place.
import { queryOptions, useMutation, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { apiRequest, type Credentials } from './http';
import type {
  CreatedCustomerDto as CreatedCustomer,
  CustomerPageDto as CustomerPage,
  CustomerSummaryDto as CustomerSummary,
  CreatedInstanceDto as CreatedInstance,
  InvitedUserDto as CreatedInvite,
  CustomerDefaultsDto as CustomerDefaults,
  DeliveryReportDto as DeliveryReport,
  EventPageDto as EventPage,
  InboxEntryDto as InboxEntry,
  InstanceDetailDto as Instance,
  InstancePageDto as InstancePage,
  InstanceSettingsDto as InstanceSettings,
  LinkInfoDto as InviteInfo,
  InstanceStatusMessage as LiveStatusMessage,
  OutboxEntryDto as OutboxEntry,
  OverviewDto as Overview,
  SessionStatusDto as SessionStatus,
  SignedInDto as SignedIn,
  TeamMemberDto as TeamMember,
  WebhookTestResultDto as WebhookTestResult,
} from '@messaging-gateway/client';

export const keys = {
  session: ['session'] as const,
  invite: (token: string) => ['invite', token] as const,
  instances: ['instances'] as const,
  instance: (id: string) => ['instances', id] as const,
  defaults: ['defaults'] as const,
  team: ['team'] as const,
  sessionStatus: (id: string) => ['instances', id, 'session-status'] as const,
  qr: (id: string) => ['instances', id, 'qr'] as const,
  events: (id: string) => ['instances', id, 'events'] as const,
  deliveries: (id: string, eventId: string) => ['instances', id, 'deliveries', eventId] as const,
  outbox: (id: string) => ['instances', id, 'outbox'] as const,
  inbox: (id: string) => ['instances', id, 'inbox'] as const,
  customers: ['operator', 'customers'] as const,
  overview: ['operator', 'overview'] as const,
};

// ---- session ----

/**
 * The session, or null without asking when the browser holds no sign-in hint cookie (set beside the session cookie,
 * apps/api/src/auth/session-cookie.ts): a signed-out page would only be told 401, which the browser logs as an error.
 */
/** How long a read started before the first render (api/prefetch.ts) counts as fresh for the page that mounts. */
const PREFETCH_FRESH_MS = 5_000;

export const sessionQuery = () =>
  queryOptions({
    queryKey: keys.session,
    queryFn: () => (hasSignInHint() ? apiRequest<SignedIn>('/auth/session') : null),
    retry: false,
    staleTime: 60_000,
  });

export function useSessionQuery() {
  return useQuery(sessionQuery());
}

export const hasSignInHint = () => document.cookie.split(';').some((part) => part.trim().startsWith('mgw_signed_in='));

/** `enabled: false` once the link is used: signing in clears the cache, and a refetch of a used link answers 410. */
export function useInviteQuery(token: string, enabled = true) {
  return useQuery({
    queryKey: keys.invite(token),
    queryFn: () => apiRequest<InviteInfo>(`/auth/invites/${encodeURIComponent(token)}`),
    retry: false,
    enabled,
  });
}

export const signIn = (email: string, password: string) =>
  apiRequest<SignedIn>('/auth/sign-in', { method: 'POST', body: { email, password } });
export const acceptInvite = (token: string, password: string) =>
  apiRequest<SignedIn>(`/auth/invites/${encodeURIComponent(token)}/accept`, { method: 'POST', body: { password } });
export const signOut = (everywhere: boolean) =>
  apiRequest<void>(everywhere ? '/auth/sign-out-everywhere' : '/auth/sign-out', { method: 'POST' });

// ---- instances ----

export const instancesQuery = () =>
  queryOptions({ queryKey: keys.instances, queryFn: () => apiRequest<InstancePage>('/account/instances?pageSize=100') });

export function useInstancesQuery() {
  return useQuery(instancesQuery());
}

export const instanceQuery = (id: string) =>
  queryOptions({
    queryKey: keys.instance(id),
    queryFn: () => apiRequest<Instance>(`/account/instances/${encodeURIComponent(id)}`),
    retry: false,
    // Kept current by the status feed; fresh long enough that a page mounting right after the prefetch does not ask twice.
    staleTime: PREFETCH_FRESH_MS,
  });

export function useInstanceQuery(id: string) {
  return useQuery(instanceQuery(id));
}

/** Applies a pushed status change to the cached list and detail, so every page shows it without a refetch. */
export function applyLiveStatus(client: QueryClient, message: LiveStatusMessage): void {
  const patch = (instance: Instance): Instance =>
    instance.id === message.instanceId
      ? { ...instance, status: message.status, deviceId: message.deviceId === undefined ? instance.deviceId : (message.deviceId ?? '') }
      : instance;
  client.setQueryData<InstancePage>(keys.instances, (page) => (page ? { ...page, items: page.items.map(patch) } : page));
  client.setQueryData<Instance>(keys.instance(message.instanceId), (instance) => (instance ? patch(instance) : instance));
  void client.invalidateQueries({ queryKey: keys.sessionStatus(message.instanceId) });
}

function useInvalidating<TArgs, TResult>(fn: (args: TArgs) => Promise<TResult>, invalidate: (args: TArgs) => readonly unknown[][]) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: fn,
    onSuccess: async (_result, args) => {
      await Promise.all(invalidate(args).map((queryKey) => client.invalidateQueries({ queryKey })));
    },
  });
}

export const instancePath = (id: string) => `/account/instances/${encodeURIComponent(id)}`;

export function useCreateInstance() {
  return useInvalidating(
    (body: { name?: string; sandbox: boolean }) => apiRequest<CreatedInstance>('/account/instances', { method: 'POST', body }),
    () => [[...keys.instances]],
  );
}

export function useRenameInstance() {
  return useInvalidating(
    ({ id, name }: { id: string; name: string }) => apiRequest<void>(`${instancePath(id)}/name`, { method: 'PUT', body: { name } }),
    () => [[...keys.instances]],
  );
}

export function useRestartInstance() {
  return useInvalidating(
    (id: string) => apiRequest<void>(`${instancePath(id)}/restart`, { method: 'PUT' }),
    (id) => [[...keys.instance(id)]],
  );
}

export function useDeleteInstance() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => apiRequest<void>(instancePath(id), { method: 'DELETE' }),
    onSuccess: async (_result, id) => {
      client.removeQueries({ queryKey: keys.instance(id) });
      await client.invalidateQueries({ queryKey: keys.instances, exact: true });
    },
  });
}

export function useRegenerateInstanceKey() {
  return useInvalidating(
    (id: string) => apiRequest<string>(`${instancePath(id)}/apikey`, { method: 'PUT' }),
    (id) => [[...keys.instance(id)]],
  );
}

export function useRotateCustomerKey() {
  return useMutation({ mutationFn: () => apiRequest<string>('/account/apikey/rotate', { method: 'POST' }) });
}

export function useUpdateSettings() {
  return useInvalidating(
    ({ id, settings }: { id: string; settings: Partial<InstanceSettings> }) =>
      apiRequest<void>(`${instancePath(id)}/settings`, { method: 'PUT', body: settings }),
    ({ id }) => [[...keys.instance(id)]],
  );
}

export function useTestWebhook() {
  return useMutation({ mutationFn: (id: string) => apiRequest<WebhookTestResult>(`${instancePath(id)}/webhook/test`, { method: 'POST' }) });
}

export function useDefaultsQuery() {
  return useQuery({ queryKey: keys.defaults, queryFn: () => apiRequest<CustomerDefaults>('/account/instances/defaults') });
}

export function useUpdateDefaults() {
  return useInvalidating(
    (defaults: CustomerDefaults) => apiRequest<void>('/account/instances/defaults', { method: 'PUT', body: defaults }),
    () => [[...keys.defaults]],
  );
}

// ---- pairing (instance plane: X-Instance-Id) ----

export function useSessionStatusQuery(id: string) {
  return useQuery({ queryKey: keys.sessionStatus(id), queryFn: () => apiRequest<SessionStatus>('/session/status', { instanceId: id }) });
}

/** The network rotates the QR code about every 20 s and has no event for it, so the page asks every 2 s while shown. */
export function useQrQuery(id: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.qr(id),
    queryFn: () => apiRequest<{ code: string }>('/session/qr/text', { instanceId: id }),
    enabled,
    refetchInterval: enabled ? 2_000 : false,
    retry: false,
  });
}

export function usePairCode() {
  return useMutation({
    mutationFn: ({ id, phone }: { id: string; phone: string }) =>
      apiRequest<{ code: string }>(`/session/pair-code/${encodeURIComponent(phone)}`, { instanceId: id }),
  });
}

export function useLogout() {
  return useInvalidating(
    (id: string) => apiRequest<void>('/session/logout', { method: 'POST', instanceId: id }),
    (id) => [[...keys.instance(id)]],
  );
}

// ---- events and deliveries ----

export const EVENT_PAGE_SIZE = 100;

export const recentEventsQuery = (id: string) =>
  queryOptions({
    queryKey: keys.events(id),
    queryFn: () => apiRequest<EventPage>(`/events?order=desc&limit=${EVENT_PAGE_SIZE}`, { instanceId: id }),
    // Kept current by the event feed once the page is open.
    staleTime: PREFETCH_FRESH_MS,
  });

export function useRecentEventsQuery(id: string) {
  return useQuery(recentEventsQuery(id));
}

/** Appends the next older page (`before` the oldest shown) to the cached log; resolves to whether more remain. */
export function useLoadOlderEvents(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (before: number) =>
      apiRequest<EventPage>(`/events?order=desc&before=${before}&limit=${EVENT_PAGE_SIZE}`, { instanceId: id }),
    onSuccess: (older) => {
      client.setQueryData<EventPage>(keys.events(id), (page) => {
        if (!page) return page;
        const known = new Set(page.items.map((item) => item.seq));
        return { ...page, items: [...page.items, ...older.items.filter((item) => !known.has(item.seq))] };
      });
    },
  });
}

export function useDeliveriesQuery(id: string, eventId: string, enabled: boolean) {
  return useQuery({
    queryKey: keys.deliveries(id, eventId),
    queryFn: () => apiRequest<DeliveryReport>(`/events/${encodeURIComponent(eventId)}/deliveries`, { instanceId: id }),
    enabled,
    // A pending delivery changes on the worker's schedule, not through the event stream.
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? 2_000 : false),
  });
}

export function useRedeliver(id: string) {
  return useInvalidating(
    (eventId: string) =>
      apiRequest<{ eventId: string; state: string }>(`/events/${encodeURIComponent(eventId)}/redeliver`, {
        method: 'POST',
        instanceId: id,
      }),
    (eventId) => [[...keys.deliveries(id, eventId)]],
  );
}

export function useRecoverFailed(id: string) {
  return useInvalidating(
    (body: { since: string; state: 'failed' | 'pending' }) =>
      apiRequest<{ count: number }>('/events/redeliver', { method: 'POST', instanceId: id, body }),
    () => [['instances', id, 'deliveries']],
  );
}

// ---- messages ----

export function useSendMessage(id: string) {
  return useInvalidating(
    ({ kind, body }: { kind: 'text' | 'buttons' | 'list'; body: unknown }) =>
      apiRequest<{ id: string } & Record<string, unknown>>(`/messages/${kind}`, { method: 'POST', instanceId: id, body }),
    () => [[...keys.outbox(id)]],
  );
}

// ---- sandbox phone ----

export function useOutboxQuery(id: string) {
  return useQuery({ queryKey: keys.outbox(id), queryFn: () => apiRequest<OutboxEntry[]>('/sandbox/outbox', { instanceId: id }) });
}

export function useInboxQuery(id: string) {
  return useQuery({ queryKey: keys.inbox(id), queryFn: () => apiRequest<InboxEntry[]>('/sandbox/inbox', { instanceId: id }) });
}

export function useSandboxInbound(id: string) {
  return useInvalidating(
    (
      body:
        | { from: string; type: 'text'; text?: string }
        | { from: string; type: 'button_reply' | 'list_reply'; replyTo: string; buttonId?: string; rowId?: string },
    ) => apiRequest<{ id: string }>('/sandbox/inbound', { method: 'POST', instanceId: id, body }),
    () => [[...keys.inbox(id)]],
  );
}

export function useSandboxReceipt(id: string) {
  return useMutation({
    mutationFn: (body: { messageId: string; status: 'delivered' | 'read'; from?: string }) =>
      apiRequest<void>('/sandbox/receipts', { method: 'POST', instanceId: id, body }),
  });
}

export function useSandboxPair(id: string) {
  return useMutation({
    mutationFn: (phone?: string) =>
      apiRequest<{ deviceId: string }>('/sandbox/pair', { method: 'POST', instanceId: id, body: phone ? { phone } : {} }),
  });
}

// ---- team ----

export function useTeamQuery() {
  return useQuery({ queryKey: keys.team, queryFn: () => apiRequest<TeamMember[]>('/account/users') });
}

export function useInviteTeammate() {
  return useInvalidating(
    (email: string) => apiRequest<CreatedInvite>('/account/users', { method: 'POST', body: { email } }),
    () => [[...keys.team]],
  );
}

export function useRemoveTeammate() {
  return useInvalidating(
    (userId: string) => apiRequest<void>(`/account/users/${encodeURIComponent(userId)}`, { method: 'DELETE' }),
    () => [[...keys.team]],
  );
}

// ---- operator (admin key, kept in memory) ----

export function useCustomersQuery(credentials: Credentials) {
  return useQuery({
    queryKey: keys.customers,
    queryFn: () => apiRequest<CustomerPage>('/admin/customers?pageSize=100&order=desc', { credentials }),
    retry: false,
  });
}

export function useOverviewQuery(credentials: Credentials) {
  return useQuery({
    queryKey: keys.overview,
    queryFn: () => apiRequest<Overview>('/admin/overview', { credentials }),
    retry: false,
    refetchInterval: 10_000,
  });
}

export function useCreateCustomer(credentials: Credentials) {
  return useInvalidating(
    (body: { name: string; ownerEmail?: string }) => apiRequest<CreatedCustomer>('/admin/customers', { method: 'POST', body, credentials }),
    () => [[...keys.customers]],
  );
}

export function useCustomerUsersQuery(credentials: Credentials, customerId: string) {
  return useQuery({
    queryKey: [...keys.customers, customerId, 'users'],
    queryFn: () => apiRequest<TeamMember[]>(`/admin/customers/${encodeURIComponent(customerId)}/users`, { credentials }),
    retry: false,
  });
}

export function usePasswordReset(credentials: Credentials) {
  return useMutation({
    mutationFn: ({ customerId, userId }: { customerId: string; userId: string }) =>
      apiRequest<{ inviteUrl: string; expiresAt: string }>(
        `/admin/customers/${encodeURIComponent(customerId)}/users/${encodeURIComponent(userId)}/password-reset`,
        { method: 'POST', credentials },
      ),
  });
}

export function useDisableCustomer(credentials: Credentials) {
  return useInvalidating(
    ({ id, disabled }: { id: string; disabled: boolean }) =>
      apiRequest<CustomerSummary>(`/admin/customers/${encodeURIComponent(id)}/disabled`, {
        method: 'PUT',
        body: { disabled },
        credentials,
      }),
    () => [[...keys.customers]],
  );
}
