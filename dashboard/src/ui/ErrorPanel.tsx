export function ErrorPanel({ message }: { message: string }) {
  return (
    <div role="alert" className="m-4 rounded-md border border-red-200 bg-red-50 p-4 text-sm text-red-800">
      {message}
    </div>
  )
}
