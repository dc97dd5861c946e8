export default function NewQuotePage() {
  return <p>NewQuotePage</p>;
}
