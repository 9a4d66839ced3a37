import { Link } from 'react-router';
import { CircleAlert } from 'lucide-react';
import { UI_TEXT } from '@forge/shared/schema-free';
import { APP_PATHS } from '@/lib/app-paths.ts';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';

/** docs/product.md#routes-and-navigation: any path the router does not know. */
export function NotFoundPage() {
  return (
    <div className="flex min-h-full items-center justify-center p-6">
      <Card className="w-full max-w-md">
        <CardContent className="flex flex-col gap-3 p-6">
          <div className="flex items-center gap-2">
            <CircleAlert aria-hidden="true" className="size-5 text-error" />
            <h1 className="text-lg font-semibold">{UI_TEXT.notFoundTitle}</h1>
          </div>
          <p className="text-sm text-muted-foreground">{UI_TEXT.notFoundBody}</p>
          <Button asChild variant="outline" size="sm" className="self-start">
            <Link to={APP_PATHS.dashboard}>Back to the dashboard</Link>
          </Button>
        </CardContent>
      </Card>
    </div>
  );
}
