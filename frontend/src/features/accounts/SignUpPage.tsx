import { AppLayout } from "@/components/AppLayout";

export default function SignUpPage() {
  return <AppLayout>{null}</AppLayout>;
}
