"""Operations on the current rows (pandas or Dask), their summary for the prompt, ranked counts and cut text."""
