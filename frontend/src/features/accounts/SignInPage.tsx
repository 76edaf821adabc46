import { AppLayout } from "@/components/AppLayout";

export default function SignInPage() {
  return <AppLayout>{null}</AppLayout>;
}
