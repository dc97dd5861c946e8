export default function QuotePage() {
  return <p>QuotePage</p>;
}
