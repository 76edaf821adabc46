import { Trans } from "@lingui/react/macro";
import { useQuery } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { Link } from "wouter";
import { AppLayout } from "@/components/AppLayout";
import { privacyContactOptions } from "./api";

function Section({ title, children }: { title: ReactNode; children: ReactNode }) {
  return (
    <section className="mt-8">
      <h2 className="text-xl font-semibold text-slate-900">{title}</h2>
      <div className="mt-2 space-y-2 text-slate-700">{children}</div>
    </section>
  );
}

const list = "list-disc space-y-1 pl-5";
const link = "text-brand-700 underline";

/** The privacy notice (Kenya's Data Protection Act, 2019), linked from the footer. */
export default function PrivacyPage() {
  // The data controller and its address come from the server's settings.
  const contact = useQuery(privacyContactOptions());
  const controller = contact.data?.controller ?? "Harambee";
  const email = contact.data?.email;

  return (
    <AppLayout>
      <article className="mx-auto max-w-3xl px-4 py-10">
        <h1 className="text-3xl font-bold text-slate-900">
          <Trans>Privacy notice</Trans>
        </h1>
        <p className="mt-3 text-slate-700">
          <Trans>
            This notice explains what personal data Harambee collects, why, who sees it, how long we keep it,
            and your rights under Kenya's Data Protection Act, 2019.
          </Trans>
        </p>

        <Section title={<Trans>What we collect</Trans>}>
          <ul className={list}>
            <li>
              <Trans>
                Your account: your name, e-mail address, phone number and national ID number. Your password is
                stored only in a form that cannot be read back.
              </Trans>
            </li>
            <li>
              <Trans>
                Pledges and donations: the name, phone number and e-mail address given with them, the amount,
                and whether you chose to stay anonymous.
              </Trans>
            </li>
            <li>
              <Trans>
                Payments: the amount, the M-Pesa phone number or card e-mail address, receipt numbers and what
                the payment provider told us.
              </Trans>
            </li>
            <li>
              <Trans>Campaigns you create, your grant profile, and feedback you send us.</Trans>
            </li>
            <li>
              <Trans>
                The SMS and e-mails we send you, and technical logs (pages requested, errors) that keep the
                service working and secure.
              </Trans>
            </li>
          </ul>
        </Section>

        <Section title={<Trans>Page views and cookies</Trans>}>
          <p>
            <Trans>
              When someone opens a campaign page, we count the visit so that its organizer can see how many
              people saw it. To count each visitor once a day, our server makes a scrambled code (a hash) from
              your internet address and browser together with a random value that changes every day. Your
              address and browser are never stored as such, and the code is deleted after about a day, so it
              cannot be traced back to you or linked to your visits on other days. Organizers see only the
              number of views and visitors each day. No cookie is used for this, and there are no third-party
              trackers.
            </Trans>
          </p>
          <p>
            <Trans>
              When you choose a language, or sign in, a cookie named <code>django_language</code> remembers
              your language for one year, so that the site opens in it next time. It holds nothing else.
            </Trans>
          </p>
          <p>
            <Trans>
              When you sign in, a cookie named <code>sessionid</code> keeps you signed in until you sign out
              or for two weeks, and <code>csrftoken</code> protects your forms from being sent by another
              site. A cookie named <code>harambee_device</code> (<code>harambee_admin_device</code> for staff)
              remembers for one year that this browser has signed in before, so that someone guessing your
              password elsewhere cannot lock you out. None of them is used for advertising or shared with
              anyone.
            </Trans>
          </p>
        </Section>

        <Section title={<Trans>Why we use it</Trans>}>
          <ul className={list}>
            <li>
              <Trans>To run your account and the campaigns you organize.</Trans>
            </li>
            <li>
              <Trans>To record pledges and donations and match payments to them.</Trans>
            </li>
            <li>
              <Trans>To send receipts, and pledge reminders that you can stop at any time.</Trans>
            </li>
            <li>
              <Trans>To prevent fraud and abuse, and to keep the records the law requires.</Trans>
            </li>
          </ul>
          <p>
            <Trans>We never sell your personal data or use it for advertising.</Trans>
          </p>
        </Section>

        <Section title={<Trans>Who sees it</Trans>}>
          <ul className={list}>
            <li>
              <Trans>
                A campaign's organizer sees the name, phone number and e-mail address of everyone who pledges
                or gives to that campaign, so they can follow up and confirm payments.
              </Trans>
            </li>
            <li>
              <Trans>
                Other visitors see only the name, or "Anonymous" if you chose it. Phone numbers and e-mail
                addresses are always hidden from them.
              </Trans>
            </li>
            <li>
              <Trans>Our administrators, to give support and prevent fraud.</Trans>
            </li>
            <li>
              <Trans>
                Service providers who process data for us: Safaricom (M-Pesa payments), Paystack (card
                payments), Africa's Talking (SMS) and our e-mail provider. They may use it only to provide
                their service.
              </Trans>
            </li>
          </ul>
        </Section>

        <Section title={<Trans>How long we keep it</Trans>}>
          <p>
            <Trans>
              We keep your account data while your account is open. When you delete your account, your
              personal data is removed at once. The pledges and donations you made while signed in stay in the
              organizers' records with their amounts, but without your name, phone number or e-mail address.
              Payment records are kept as long as Kenyan tax and accounting law requires. For pledges and
              donations you made without signing in, write to us (Contact us, below) and we will remove your
              details from them.
            </Trans>
          </p>
          <p>
            <Trans>Phone numbers and e-mail addresses are masked in our technical logs.</Trans>
          </p>
        </Section>

        <Section title={<Trans>Your rights</Trans>}>
          <p>
            <Trans>Under Kenya's Data Protection Act, 2019, you have the right to:</Trans>
          </p>
          <ul className={list}>
            <li>
              <Trans>
                access your data: use "Download my data" on your{" "}
                <Link href="/profile" className={link}>
                  profile
                </Link>
                ;
              </Trans>
            </li>
            <li>
              <Trans>correct it: edit your profile, or ask us;</Trans>
            </li>
            <li>
              <Trans>delete it: use "Delete my account" on your profile, or ask us;</Trans>
            </li>
            <li>
              <Trans>
                object to how we use it, including reminders: every reminder has a link that stops them.
              </Trans>
            </li>
          </ul>
          <p>
            <Trans>
              If you are not happy with our answer, you may complain to the Office of the Data Protection
              Commissioner (odpc.go.ke).
            </Trans>
          </p>
        </Section>

        <Section title={<Trans>Contact us</Trans>}>
          <p>
            <Trans>The data controller is {controller}.</Trans>{" "}
            {email ? (
              <Trans>
                Write to{" "}
                <a href={`mailto:${email}`} className={link}>
                  {email}
                </a>{" "}
                about your personal data.
              </Trans>
            ) : null}
          </p>
        </Section>
      </article>
    </AppLayout>
  );
}
