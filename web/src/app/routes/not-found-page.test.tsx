import { render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { RouterProvider } from 'react-router';
import { describe, expect, it } from 'vitest';
import { createTestRouter } from '../../test/test-scoped';
import { AboutPage } from './about-page';
import { NotFoundPage } from './not-found-page';

describe('NotFoundPage', () => {
  it('says the page is missing and links home', async () => {
    // Prepare
    const user = userEvent.setup();
    const router = createTestRouter(
      [
        { path: '/', element: <h1>Home page</h1> },
        { path: '*', element: <NotFoundPage /> },
      ],
      { initialEntries: ['/no/such/page'] },
    );
    render(<RouterProvider router={router} />);
    expect(screen.getByRole('heading', { name: 'Page not found' })).toBeInTheDocument();
    expect(screen.getByText('/no/such/page')).toBeInTheDocument();

    // Act
    await user.click(screen.getByRole('link', { name: 'Back to the rankings' }));

    // Assess
    expect(screen.getByRole('heading', { name: 'Home page' })).toBeInTheDocument();
  });
});

describe('AboutPage', () => {
  it('defines active and fastest growing, and says rankings update hourly', () => {
    // Prepare
    const router = createTestRouter([{ path: '/about', element: <AboutPage /> }], { initialEntries: ['/about'] });
    render(<RouterProvider router={router} />);

    // Assess
    expect(screen.getByRole('heading', { level: 1, name: 'What TopPubs measures' })).toBeInTheDocument();
    expect(screen.getByText(/published a post in the last 30 days/)).toBeInTheDocument();
    expect(screen.getByText(/followers they gained over the last 30 days/)).toBeInTheDocument();
    expect(screen.getByText(/grew more in percentage comes first/)).toBeInTheDocument();
    expect(screen.getByText(/rankings are updated hourly/)).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'Fastest growing' })).toHaveAttribute('href', '/growing');
  });
});
