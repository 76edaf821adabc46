import { lazy } from "react";
import { Route, Switch } from "wouter";
import { RequireAuth } from "./features/accounts/RequireAuth";

// The signed-in side's routes (organizers, treasurers, ushers), loaded by App for any path its public
// table does not know: one small chunk that public pages never download. Each page is a chunk of its own.
const ProfilePage = lazy(() => import("./features/accounts/ProfilePage"));
const MyPledgesPage = lazy(() => import("./features/pledges/MyPledgesPage"));
const MyGivingPage = lazy(() => import("./features/giving/MyGivingPage"));
const DashboardPage = lazy(() => import("./features/dashboard/DashboardPage"));
const AnalyticsPage = lazy(() => import("./features/analytics/AnalyticsPage"));
const EditCampaignPage = lazy(() => import("./features/campaigns/EditCampaignPage"));
const EventsPage = lazy(() => import("./features/events/EventsPage"));
const DeskPage = lazy(() => import("./features/desk/DeskPage"));
const EventReportPage = lazy(() => import("./features/desk/EventReportPage"));
const CashReconciliationPage = lazy(() => import("./features/desk/CashReconciliationPage"));
const GrantFundingPage = lazy(() => import("./features/grants/GrantFundingPage"));
const CreateCampaignPage = lazy(() => import("./features/wizard/CreateCampaignPage"));
const StartFundraiserPage = lazy(() => import("./features/fundraiser/StartFundraiserPage"));
const OrganizationsPage = lazy(() => import("./features/organizations/OrganizationsPage"));
const OrganizationPage = lazy(() => import("./features/organizations/OrganizationPage"));
// The organization's page shows the giving feature's statements panel: composed here (OrganizationPageParts).
const OrganizationStatements = lazy(() =>
  import("./features/giving/OrganizationStatements").then((module) => ({
    default: module.OrganizationStatements,
  })),
);
const organizationPageParts = { Statements: OrganizationStatements };
const CollectionAccountsPage = lazy(() => import("./features/collection-accounts/CollectionAccountsPage"));
const MpesaConnectionPage = lazy(() => import("./features/collection-accounts/MpesaConnectionPage"));
const CardPaymentsPage = lazy(() => import("./features/collection-accounts/CardPaymentsPage"));
const AirtelConnectionPage = lazy(() => import("./features/collection-accounts/AirtelConnectionPage"));
const StatementImportPage = lazy(() => import("./features/statements/StatementImportPage"));
const SpendingTeamPage = lazy(() => import("./features/spending/SpendingTeamPage"));
const ChampionCirclePage = lazy(() => import("./features/champions/ChampionCirclePage"));
const NotFoundPage = lazy(() => import("./components/NotFoundPage"));

export default function OrganizerRoutes() {
  return (
    <Switch>
      {/* Signed in, or a volunteer's desk passcode: the page asks the server which. */}
      <Route path={/^\/campaign\/(?<id>\d+)\/desk\/?$/} component={DeskPage} />
      <Route path={/^\/campaign\/(?<id>\d+)\/events\/?$/}>
        <RequireAuth>
          <EventsPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/campaign\/(?<id>\d+)\/events\/(?<event>\d+)\/report\/?$/}>
        <RequireAuth>
          <EventReportPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/campaign\/(?<id>\d+)\/events\/(?<event>\d+)\/cash\/?$/}>
        <RequireAuth>
          <CashReconciliationPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/campaign\/(?<id>\d+)\/spending\/team\/?$/}>
        <RequireAuth>
          <SpendingTeamPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/campaign\/(?<id>\d+)\/champions\/(?<code>[2-9a-hjkmnp-zA-HJKMNP-Z]{6})\/?$/}>
        <RequireAuth>
          <ChampionCirclePage />
        </RequireAuth>
      </Route>
      <Route path={/^\/campaign\/(?<id>\d+)\/analytics\/?$/}>
        <RequireAuth>
          <AnalyticsPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/edit-campaign\/(?<id>\d+)\/?$/} component={EditCampaignPage} />
      <Route path={/^\/campaign\/(?<id>\d+)\/edit\/?$/} component={EditCampaignPage} />
      <Route path="/pledge/create-campaign">
        <RequireAuth>
          <CreateCampaignPage />
        </RequireAuth>
      </Route>
      <Route path="/start-fundraiser">
        <RequireAuth>
          <StartFundraiserPage />
        </RequireAuth>
      </Route>
      <Route path="/dashboard">
        <RequireAuth>
          <DashboardPage />
        </RequireAuth>
      </Route>
      <Route path="/home">
        <RequireAuth>
          <DashboardPage />
        </RequireAuth>
      </Route>
      <Route path="/grantfunding">
        <RequireAuth>
          <GrantFundingPage />
        </RequireAuth>
      </Route>
      <Route path="/organizations">
        <RequireAuth>
          <OrganizationsPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/organizations\/(?<id>\d+)\/?$/}>
        <RequireAuth>
          <OrganizationPage parts={organizationPageParts} />
        </RequireAuth>
      </Route>
      <Route path={/^\/organizations\/(?<id>\d+)\/collection-accounts\/?$/}>
        <RequireAuth>
          <CollectionAccountsPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/orgs\/(?<organization>\d+)\/collection-accounts\/(?<account>\d+)\/mpesa\/?$/}>
        <RequireAuth>
          <MpesaConnectionPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/orgs\/(?<organization>\d+)\/collection-accounts\/(?<account>\d+)\/cards\/?$/}>
        <RequireAuth>
          <CardPaymentsPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/orgs\/(?<organization>\d+)\/collection-accounts\/(?<account>\d+)\/airtel\/?$/}>
        <RequireAuth>
          <AirtelConnectionPage />
        </RequireAuth>
      </Route>
      <Route path={/^\/orgs\/(?<organization>\d+)\/statements\/?$/}>
        <RequireAuth>
          <StatementImportPage />
        </RequireAuth>
      </Route>
      <Route path="/profile">
        <RequireAuth>
          <ProfilePage />
        </RequireAuth>
      </Route>
      <Route path="/my-pledges">
        <RequireAuth>
          <MyPledgesPage />
        </RequireAuth>
      </Route>
      <Route path="/my-giving">
        <RequireAuth>
          <MyGivingPage />
        </RequireAuth>
      </Route>
      <Route component={NotFoundPage} />
    </Switch>
  );
}
