// Queries and mutations of the peer views (account identity, chats, delivery health, the message tester, behaviour
// settings). Every one goes to a documented instance route with X-Instance-Id.
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiRequest } from './http';
import type {
  ChatDto,
  ChatPictureDto,
  DeliveryHealthDto,
  DeliveryStatesDto,
  LoggedMessage,
  MessageEventData,
  PrivacySettingsDto,
  TesterSendKind,
  UserMeInfoDto,
} from './peer-types';
import type { EventPageDto as EventPage } from '@messaging-gateway/client';

export const peerKeys = {
  profile: (id: string) => ['instances', id, 'profile'] as const,
  picture: (id: string, jid: string) => ['instances', id, 'picture', jid] as const,
  chats: (id: string) => ['instances', id, 'chats'] as const,
  messageLog: (id: string) => ['instances', id, 'message-log'] as const,
  deliveryStates: (id: string) => ['instances', id, 'delivery-states'] as const,
  deliveryHealth: (id: string) => ['instances', id, 'delivery-health'] as const,
  privacy: (id: string) => ['instances', id, 'privacy'] as const,
};

/** Chats and message history have no push of their own; while a page shows them it asks again this often. */
export const PEER_POLL_MS = 5_000;

// ---- account identity ----

/** The paired account's number, push name and picture id; only asked while the instance is connected. */
export function useOwnProfileQuery(id: string, connected: boolean) {
  return useQuery({
    queryKey: peerKeys.profile(id),
    queryFn: () => apiRequest<UserMeInfoDto>('/users/me/profile', { instanceId: id }),
    enabled: connected,
    retry: false,
    staleTime: 30_000,
  });
}

/** A picture's download link; asked only when a picture id says there is one (no picture is a 404). */
export function usePictureQuery(id: string, jid: string, pictureId: string | undefined) {
  return useQuery({
    queryKey: [...peerKeys.picture(id, jid), pictureId],
    queryFn: () => apiRequest<ChatPictureDto>(`/chats/${encodeURIComponent(jid)}/picture`, { instanceId: id }),
    enabled: Boolean(pictureId),
    retry: false,
    staleTime: 10 * 60_000,
  });
}

// ---- chats and message history ----

export function useChatsQuery(id: string) {
  return useQuery({
    queryKey: peerKeys.chats(id),
    queryFn: () => apiRequest<ChatDto[]>('/chats', { instanceId: id }),
    refetchInterval: PEER_POLL_MS,
  });
}

/** How many log events one page of message history reads: every page is asked again at each poll, so kept small. */
export const MESSAGE_LOG_PAGE = 300;

/**
 * Message history comes from the instance's event log: the API keeps no message list of its own, and every message
 * sent or received is a `message` event there. Pages go back in time; each keeps only its message events.
 */
export function useMessageLogQuery(id: string) {
  return useInfiniteQuery({
    queryKey: peerKeys.messageLog(id),
    initialPageParam: 0,
    queryFn: async ({ pageParam }) => {
      const before = pageParam > 0 ? `&before=${pageParam}` : '';
      const page = await apiRequest<EventPage>(`/events?order=desc&limit=${MESSAGE_LOG_PAGE}${before}`, { instanceId: id });
      const messages: LoggedMessage[] = page.items
        .filter((item) => item.event.eventType === 'message')
        .map((item) => ({ seq: item.seq, receivedAt: item.event.receivedAt, message: item.event.eventData as MessageEventData }));
      const oldest = page.items.at(-1)?.seq;
      return { messages, oldest: page.items.length === MESSAGE_LOG_PAGE && oldest !== undefined && oldest > 1 ? oldest : undefined };
    },
    getNextPageParam: (last) => last.oldest,
    refetchInterval: PEER_POLL_MS,
  });
}

// ---- delivery health ----

export function useDeliveryStatesQuery(id: string, since: string | undefined, newest: number | undefined) {
  return useQuery({
    queryKey: [...peerKeys.deliveryStates(id), since, newest],
    placeholderData: (previous) => previous,
    queryFn: () => apiRequest<DeliveryStatesDto>(`/events/deliveries?since=${encodeURIComponent(since ?? '')}`, { instanceId: id }),
    enabled: since !== undefined,
    // Pending deliveries settle on the worker's schedule; ask again while any is pending.
    refetchInterval: (query) => (query.state.data?.items.some((item) => item.state === 'pending') ? 3_000 : false),
  });
}

export function useDeliveryHealthQuery(id: string) {
  return useQuery({
    queryKey: peerKeys.deliveryHealth(id),
    queryFn: () => apiRequest<DeliveryHealthDto>('/events/deliveries/hourly', { instanceId: id }),
    refetchInterval: 60_000,
  });
}

// ---- the message tester ----

export function useTesterSend(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (send: { kind: TesterSendKind; body: unknown } | { kind: 'reaction'; messageId: string; body: unknown }) =>
      apiRequest<{ id: string }>(
        send.kind === 'reaction' ? `/messages/${encodeURIComponent(send.messageId)}/reaction` : `/messages/${send.kind}`,
        { method: 'POST', instanceId: id, body: send.body },
      ),
    onSuccess: async () => {
      await Promise.all([
        client.invalidateQueries({ queryKey: ['instances', id, 'outbox'] }),
        client.invalidateQueries({ queryKey: peerKeys.messageLog(id) }),
      ]);
    },
  });
}

// ---- behaviour settings ----

export function usePrivacyQuery(id: string, connected: boolean) {
  return useQuery({
    queryKey: peerKeys.privacy(id),
    queryFn: () => apiRequest<PrivacySettingsDto>('/users/me/privacy', { instanceId: id }),
    enabled: connected,
    retry: false,
  });
}

export function useSetPrivacy(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { setting: string; value: string }) =>
      apiRequest<PrivacySettingsDto | undefined>('/users/me/privacy', { method: 'PUT', instanceId: id, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: peerKeys.privacy(id) }),
  });
}

export function useUpdateProfile(id: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { name?: string; status?: string }) =>
      apiRequest<void>('/users/me/profile', { method: 'PUT', instanceId: id, body }),
    onSuccess: () => client.invalidateQueries({ queryKey: peerKeys.profile(id) }),
  });
}

export function useSetPresence(id: string) {
  return useMutation({
    mutationFn: (presence: 'available' | 'unavailable') =>
      apiRequest<void>('/users/me/presence', { method: 'PUT', instanceId: id, body: { presence } }),
  });
}
