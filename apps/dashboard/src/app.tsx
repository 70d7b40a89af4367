import { BrowserRouter, Navigate, Route, Routes } from 'react-router';
import { AppShell } from './components/app-shell';
import { BehaviourSettings } from './instance/behaviour-settings';
import { ChatsView } from './instance/chats-view';
import { EventLog } from './instance/event-log';
import { InstanceOverview } from './instance/instance-overview';
import { InstancePage } from './instance/instance-page';
import { MessageComposer } from './instance/message-composer';
import { MessageTester } from './instance/message-tester';
import { PairingPanel } from './instance/pairing-panel';
import { SandboxPhone } from './instance/sandbox-phone';
import { WebhookSettings } from './instance/webhook-settings';
import { AccountPage } from './pages/account-page';
import { InstancesPage } from './pages/instances-page';
import { InvitePage } from './pages/invite-page';
import { NotFoundPage } from './pages/not-found-page';
import { OperatorPage } from './pages/operator-page';
import { SignInPage } from './pages/sign-in-page';
import { TeamPage } from './pages/team-page';
import { LiveStatusProvider } from './session/live-status';
import { RequireSession } from './session/session';

export function App() {
  return (
    <BrowserRouter basename="/dashboard">
      <Routes>
        <Route path="/sign-in" element={<SignInPage />} />
        <Route path="/invite/:token" element={<InvitePage />} />
        <Route path="/operator" element={<OperatorPage />} />
        <Route
          element={
            <RequireSession>
              <LiveStatusProvider>
                <AppShell />
              </LiveStatusProvider>
            </RequireSession>
          }
        >
          <Route index element={<InstancesPage />} />
          <Route path="instances/:instanceId" element={<InstancePage />}>
            <Route index element={<InstanceOverview />} />
            <Route path="pairing" element={<PairingPanel />} />
            <Route path="webhooks" element={<WebhookSettings />} />
            <Route path="events" element={<EventLog />} />
            <Route path="compose" element={<MessageComposer />} />
            <Route path="chats" element={<ChatsView />} />
            <Route path="tester" element={<MessageTester />} />
            <Route path="settings" element={<BehaviourSettings />} />
            <Route path="phone" element={<SandboxPhone />} />
          </Route>
          <Route path="account" element={<AccountPage />} />
          <Route path="team" element={<TeamPage />} />
          <Route path="instances" element={<Navigate to="/" replace />} />
          <Route path="*" element={<NotFoundPage />} />
        </Route>
      </Routes>
    </BrowserRouter>
  );
}
